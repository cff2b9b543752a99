"""People and each other: friends, invitations to a seat, blocks, and the live channel
that reaches every open page of a person (on whichever process it is connected to)."""
