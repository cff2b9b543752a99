"""The live connections of this process.

- ``hub`` — ``Hub``: each room's connections and the fan-out to them; implements the rooms'
            notifier and presence and the chat's readers for one process;
- ``session_ends`` — ``SessionEnds``: a socket closes when the session it was opened with
                     ends (a logout, here or in another process);
- ``wakeup`` — ``Wakeup``: what a socket's send loop waits on while it has nothing to send
               (the play socket's and a page's live socket's).
"""
