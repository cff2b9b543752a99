"""Reports and moderation: people report others; moderators work the reports and act —
warn, mute site-wide, ban, delete a chat line, close a table — every action in an audit
log. ``sanctions`` says what a mute or ban refuses and how it is worded; ``reports`` files
a report with its evidence; ``actions`` carries out what moderators do; ``people`` is what
moderators see of a person."""
