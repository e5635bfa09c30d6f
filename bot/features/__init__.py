"""Everything a member touches, one package per feature; bot/client.py assembles them.

Each package holds its slash commands (`cog.py`), its persistent components, its texts and
the handlers that call the services it is given (typed, never looked up on the bot object):

- `lobby`: /play <game>, the lobby message and its buttons, /cancel, expiring lobbies;
- `table`: the board (publishing), moves, picks, /move, /board, /resign, /hint, computer
  turns, deadlines and the sweeper that posts boards left behind;
- `history`: /history, /replay, /export;  `review`: /review;
- `tournaments`: /tournament and seasons;  `settings`: /settings;
- `guide`: /rules and /help;  `info`: /leaderboard and /stats;
- `common`: what every feature shares (services, places, replies, faults, components'
  routes, command declarations, names and badges).

A feature imports `common` and the services below it (bot/tables, bot/games, bot/i18n);
where one feature needs another's object (the lobby posts the first board through the
table's publisher), client.py passes it in.
"""
