"""The live connections of this process.

- ``hub`` — ``Hub``: each room's connections and the fan-out to them; implements the rooms'
            notifier and presence and the chat's readers for one process.
"""
