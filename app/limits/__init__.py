"""How often someone may do something.

- ``quotas``  — counters in fixed windows, per account, person or address (in memory or in
                Redis);
- ``buckets`` — token buckets: per connection or per person, bursts fine, floods refused.
"""
