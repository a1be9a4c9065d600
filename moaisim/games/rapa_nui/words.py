"""What Rapa Nui's reports call things (docs/reports.md; docs/rapa-nui-rules.md, R0): the
toolkit's tables, figures and sentences read these words from the game's spec (`VOCABULARY`),
never their own."""

from __future__ import annotations

#: Word (or column name) by what it names; every key Moai's has (docs/design.md, "Adding a
#: game").
VOCABULARY: dict[str, str] = {
    "seat": "seat",
    # R2: seat 0 plays first (and, R1.6, starts with the least wood: 2)
    # R2, R8: a game is a sequence of turns; a round (R8.3) is one turn of each seat, from
    # seat 0, and a game's length is counted in rounds begun (the results' `rounds`; its
    # turns are `game_turns`)
    "round": "round",
    # R9.1: a score is glory
    "score": "glory",
    # the headline part is the first of `SCORE_PARTS`: the Moai's glory at the end (R9.1),
    # counted by the results column `moai` (a Moai in a village stays there, R0)
    "headline_part": "Moai",
    "headline_column": "moai",
    # seat 0's role: the metric names ("<name> win share", "<name>'s share against fair"),
    # how a sentence, an aside, a lead and a figure's axis name seat 0 (R2)
    "seat_zero_name": "start player",
    "seat_zero_said": "the start player (seat 0, who takes the first turn)",
    "seat_zero_aside": "seat 0, the start player, who takes the first turn",
    "seat_zero_player": "the start player (seat 0)",
    "seat_axis": "seat (0: the start player)",
    # the headline part: one piece of it, what it is of, the verb for making one (R4.1: a
    # Moai is played into the village for 7 wood; the rules book's "Moai builder", B3), the
    # results column that counts them, and what the tables call them
    "headline_piece": "Moai",
    "headline_label": "the Moai in the villages at the end",
    "headline_verb": "build",
    "headline_count": "moai",
    "pieces_made": "Moai built",
    "never_made": "never builds a Moai",
    "pieces_per_seat": "moai_per_seat",
    "first_piece_round": "first_moai_turn",
    "self_play_pieces": "self_play_moai",
    # the score's parts as sentences say them (the rule that scores them first)
    "score_rule": "R9.1",
    "score_parts_said": ("the Moai in the village, glory taken during the game, wood left and "
                         "the sacrifice cards left in the stock"),
    "strong_parts_said": ("the Moai at the end, glory taken during the game, wood, the stock; "
                          "Moai per seat and game; the share of seats that build a Moai; the "
                          "mean turn of the first"),
    # where the shipped weights files live, as the reports name them
    "weights_folder": "strategies/rapa_nui/weights",
}  # fmt: skip

#: The parts a seat's score splits into, the headline part first (`GameInfo.score_parts`).
SCORE_PARTS: tuple[str, ...] = ("Moai", "glory", "wood", "stock")
