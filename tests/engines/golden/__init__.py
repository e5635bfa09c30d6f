"""Golden playthroughs: one seeded game per game and option set, written out as text."""
