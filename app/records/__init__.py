"""Match records: what a finished match was, told from its event log.

- ``history``    — the finished matches a viewer may see, filtered and a page at a time;
- ``review``     — a match's record and its review, move by move with the table talk;
- ``transcript`` — a finished match as a readable text transcript;
- ``analysis``   — the computer's analysis of a finished match: the queue's worker
  (``Analyst``) and the analysis as the API shows it.

Who played each seat's moves is written when the match ends (app/store/credit.py).
"""
