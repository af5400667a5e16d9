"""What the lessons' build-time figures share: the inks each colour scheme draws with."""
