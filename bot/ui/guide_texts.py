"""The words of /rules: per game a short guide in pages, written from the rule files
(../shared/rules/<game>.md), complete enough that someone who never played can play.

Pages: "goal", "setup", "turn", "special" and "notation" are texts here; "options" is built
from the engine's option spec (bot/ui/rules.py). Texts may name commands as `{/move}`.
"""

from __future__ import annotations

from bot.i18n import N_

PAGES: tuple[str, ...] = ("goal", "setup", "turn", "special", "options", "notation")
PAGE_TITLES: dict[str, str] = {
    "goal": N_("Goal"),
    "setup": N_("Setup"),
    "turn": N_("A turn"),
    "special": N_("Special rules"),
    "options": N_("Options"),
    "notation": N_("Notation"),
}

GUIDES: dict[str, dict[str, str]] = {
    "senet": {
        "goal": N_(
            "A race for two players on the ancient Egyptian board. Each player has five "
            "stones: White (badge 1) and Black (badge 2).\n"
            "The first player to bear off all five stones wins."
        ),
        "setup": N_(
            "30 squares in a reverse S: 1 to 10 left to right on the top row, 11 to 20 right "
            "to left in the middle, 21 to 30 left to right at the bottom.\n"
            "The stones start alternately on squares 1 to 10: White on the even squares, "
            "Black on the odd ones. White throws first."
        ),
        "turn": N_(
            "1. Throw the four sticks: the number of light sides up is the throw (1 to 4); "
            "no light side counts **5**.\n"
            "2. Move one of your stones exactly that many squares forward. Moving is "
            "compulsory. You may pass over any stones, but not land on your own.\n"
            "3. Landing on a lone enemy stone swaps the two. Two stones of one colour side by "
            "side protect each other: they cannot be attacked.\n"
            "4. After a throw of **1, 4 or 5** you throw again.\n"
            "5. If no stone can move forward, you must move one **backward** by the throw "
            "(no extra throw). If nothing can move at all, your turn ends."
        ),
        "special": N_(
            "**26, House of Beauty**: every stone must stop here exactly; none may pass it. "
            "From 26: 1 goes to 27, 2 to 28, 3 to 29, 4 to 30, 5 bears the stone off.\n"
            "**27, House of Water**: a stone here must either go back to 15 (or the first "
            "free square below), or try to escape: only a throw of 4 bears it off. While it "
            "is there, no other stone of yours may move.\n"
            "**28** bears off only with exactly **3**, **29** only with exactly **2**, "
            "**30** with any throw.\n"
            "A stone on 28, 29 or 30 that is swapped by the opponent **drowns**: it goes to "
            "27. Stones on 27 to 30 never move backward and are never protected."
        ),
        "notation": N_(
            "Use the buttons under the board, or type with {/move}:\n"
            "`move 14`: move the stone on square 14 by your throw.\n"
            "`return` / `try`: the choice on the House of Water.\n"
            "`pass`: only when no stone can move."
        ),
    },
    "six_nimmt": {
        "goal": N_(
            "Don't take cards! Everyone starts with **66 points** and loses one point per "
            "bullhead 🐮 on the cards they take.\n"
            "When someone has no points left, the game ends after that round; whoever has "
            "the most points left wins."
        ),
        "setup": N_(
            "Cards 1 to 104. Each player gets **10 cards**; **four rows** are started with one "
            "card each.\n"
            "Bullheads: 55 has 7, multiples of 11 have 5, multiples of 10 have 3, cards "
            "ending in 5 have 2, every other card has 1."
        ),
        "turn": N_(
            "1. Everyone picks a card from their hand **face down, at the same time** (by DM "
            "or with the button \"Pick privately\").\n"
            "2. The cards are revealed and placed **lowest first**. Each goes at the end of "
            "the row whose last card is the highest one **lower** than it.\n"
            "3. The **sixth** card of a row: its player takes the five cards and the card "
            "starts the row again.\n"
            "4. A card lower than the last card of every row: its player chooses a row, takes "
            "it, and the card starts that row.\n"
            "After 10 turns the hands are empty: the next round is dealt."
        ),
        "special": N_(
            "Rows never hold more than five cards; a card is never put inside a row.\n"
            "**Tactical**: only cards 1 to 10 × players + 4 are used, so every card in play "
            "is known. **Logical**: those cards lie face up and the players draft their "
            "hands one card at a time.\n"
            "**Professional**: a card may also go before the left end of a row, when it is "
            "lower than that row's first card; it goes where the difference is smallest."
        ),
        "notation": N_(
            "Pick with the menu of your hand, or type with {/move}:\n"
            "`play 42`: pick card 42.\n"
            "`take 3`: take row 3 (when your card is lower than every row).\n"
            "`place 2 left` / `place 2 right`: professional, when two ends fit as well."
        ),
    },
    "varanasi": {
        "goal": N_(
            "Towers of discs stand on numbered spots; every player may move every disc. "
            "Whoever takes the **last disc** wins the set and scores the discs they took "
            "in it (one point each).\n"
            "The match lasts several sets (3 by default); the highest total wins."
        ),
        "setup": N_(
            "Each colour has four discs: **large (4), medium (3), small (2) and tip (1)**. "
            "The discs in play are stacked at random into towers, one tower per spot, each "
            "disc smaller than the one below.\n"
            "A spot that becomes empty stays empty for the rest of the set."
        ),
        "turn": N_(
            "Do one of these; **passing is not allowed**:\n"
            "**Take a colour**: remove the top disc of every tower whose top disc has that "
            "colour, and keep them.\n"
            "**Move**: take the top discs of one tower (one or more, even the whole tower) "
            "and put them on **another tower**, in the same order. The lowest moved disc must "
            "be **smaller** than the top disc it lands on, and the destination must end "
            "**higher** than the source tower was before the move.\n"
            "Moving onto an **empty spot** is never allowed."
        ),
        "special": N_(
            "Each disc carries the mark of its colour: red ●, blue ■, green ▲, yellow ◆, "
            "white ★, black ✖.\n"
            "**Misère**: taking the last disc loses the set (2 players or teams).\n"
            "**Teams** (4 players): seats 1 and 3 play against seats 2 and 4.\n"
            "**Weighted**: a disc scores its size (1 to 4). **Last take**: the set winner "
            "scores only the discs of the final take."
        ),
        "notation": N_(
            "Use the buttons under the board, or type with {/move}:\n"
            "`take r`: take red (r red, b blue, g green, y yellow, w white, k black).\n"
            "`move 3 2 5`: move the top 2 discs of spot 3 onto spot 5."
        ),
    },
    "cows_leopards": {
        "goal": N_(
            "A hunt: **24 cows** against **2 leopards**. The leopards win by capturing 8 "
            "cows; the cows win by trapping both leopards so that they cannot move."
        ),
        "setup": N_(
            "The board is an Alquerque square with triangles (board B: four triangles, 49 "
            "points; board A: two triangles, 37 points). Points are named like a chess "
            "board: columns a to i, rows 1 to 9.\n"
            "**One leopard starts on e5**, the centre; the other leopard and all 24 cows "
            "start in hand. **The cows move first.**"
        ),
        "turn": N_(
            "**Cows**: while cows are in hand, drop one on any empty point; cows on the "
            "board may not move until all 24 are dropped. Then step one cow along a line to "
            "the next empty point. Cows never capture.\n"
            "**Leopards**: drop the second leopard, step along a line, or **jump** over an "
            "adjacent cow to the empty point just beyond it, capturing that cow. One jump "
            "per turn; jumping is never compulsory."
        ),
        "special": N_(
            "A side that must move but cannot loses.\n"
            "Once all cows are dropped, 100 moves in a row without a capture end the game in "
            "a draw.\n"
            "Option: the second leopard may have to be dropped right after the last cow."
        ),
        "notation": N_(
            "Use the buttons and menus under the board, or type with {/move}:\n"
            "`drop d4`: put a piece from your hand on d4.\n"
            "`e5-e6`: step from e5 to e6.\n"
            "`e5xe7`: jump from e5 over the cow on e6 to e7."
        ),
    },
}
