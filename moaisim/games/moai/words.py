"""What Moai's reports call things (docs/reports.md): the toolkit's tables, figures and
sentences read these words from the game's spec (`VOCABULARY`), never their own."""

from __future__ import annotations

#: Word (or column name) by what it names.
VOCABULARY: dict[str, str] = {
    "seat": "seat",
    "round": "round",
    "score": "points",
    "headline_part": "statues",
    "headline_column": "moai_height",
    # seat 0's role: the metric names ("<name> win share", "<name>'s share against fair"),
    # how a sentence, an aside, a lead and a figure's axis name seat 0
    "seat_zero_name": "first bird-man",
    "seat_zero_said": "the first bird-man (seat 0, who holds the bird-man token before round 1)",
    "seat_zero_aside": "seat 0, who holds the bird-man token before round 1",
    "seat_zero_player": "the player holding the bird-man token first (seat 0)",
    "seat_axis": "seat (0: bird-man before round 1)",
    # the headline part: one piece of it, what it is of, the verb for making one, the
    # results and per-round column that counts them, and what the tables call them
    "headline_piece": "statue",
    "headline_label": "Moai",
    "headline_verb": "carve",
    "headline_count": "moai_count",
    "pieces_made": "Moai carved",
    "never_made": "never carves a Moai",
    "pieces_per_seat": "moai_per_seat",
    "first_piece_round": "first_statue_round",
    "self_play_pieces": "self_play_moai",
    # the score's parts as sentences say them (the rule that scores them first)
    "score_rule": "R8.2",
    "score_parts_said": "statues (Moai height), living pawns and wood",
    "strong_parts_said": ("statue heights, surviving pawns, wood; Moai per seat and game; the "
                          "share of seats that finish a statue; the mean round of the first"),
    # where the shipped weights files live, as the reports name them
    "weights_folder": "strategies/moai/weights",
}  # fmt: skip

#: The parts a seat's score splits into, the headline part first (`GameInfo.score_parts`).
SCORE_PARTS: tuple[str, ...] = ("statues", "pawns", "wood")
