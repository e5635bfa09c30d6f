"""Tournaments: the formats' rules (pairing.py, pure) and their state and rounds
(service.py, no Discord)."""
