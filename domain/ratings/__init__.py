"""The club's rating list (rules R-RATE-*): the FIBS formula and the list's own aggregate."""
