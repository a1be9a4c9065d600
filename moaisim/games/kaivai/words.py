"""What Kaivai's reports call things (docs/reports.md; docs/kaivai-rules.md, R0): the
toolkit's tables, figures and sentences read these words from the game's spec (`VOCABULARY`),
never their own."""

from __future__ import annotations

#: Word (or column name) by what it names; every key of `moaisim.games.base.VOCABULARY_KEYS`.
VOCABULARY: dict[str, str] = {
    "seat": "seat",
    # R2: a game is 10 rounds (8 in the second edition), each of bids, actions and decay
    "round": "round",
    # R10.5: the most glory wins
    "score": "glory",
    # the headline part is the first of `SCORE_PARTS`: the glory of feasts (R8.6.2), the
    # game's engine; its pieces are the feasts a seat celebrates (the results' and the
    # per-round table's `celebrations`)
    "headline_part": "feasts",
    "headline_column": "celebrations",
    # seat 0 has no role of its own: the first round's bidding order is drawn (R1.7) and
    # later orders follow the bids (R2.3, R3.4); its edge is a check that none is built in
    "seat_zero_name": "seat 0",
    "seat_zero_said": "seat 0 (who has no role of its own: the first bidding order is drawn)",
    "seat_zero_aside": "seat 0, whose first bidding place is drawn like every seat's",
    "seat_zero_player": "seat 0",
    "seat_axis": "seat",
    # the headline part: one piece of it, what it is of, the verb for making one (R8.6:
    # a feast is celebrated on an island with fish on its huts), the results column that
    # counts them, and what the tables call them
    "headline_piece": "feast",
    "headline_label": "the feasts a seat celebrates",
    "headline_verb": "celebrate",
    "headline_count": "celebrations",
    "pieces_made": "feasts celebrated",
    "never_made": "never celebrates a feast",
    "pieces_per_seat": "feasts_per_seat",
    "first_piece_round": "first_feast_round",
    "self_play_pieces": "self_play_feasts",
    # the glory's parts as sentences say them (the rule that scores them first)
    "score_rule": "R10",
    "score_parts_said": ("the glory of feasts in play, 2 a hut on the board at the end, the "
                         "cult sites of the islands won, and the glory paid for sinkings"),
    "strong_parts_said": ("feasts, huts, cult sites, piracy; feasts per seat and game; the "
                          "share of seats that celebrate one; the mean round of the first"),
    # where the shipped weights files live, as the reports name them
    "weights_folder": "strategies/kaivai/weights",
}  # fmt: skip

#: The parts a seat's glory splits into, the headline part first (`GameInfo.score_parts`).
SCORE_PARTS: tuple[str, ...] = ("feasts", "huts", "sites", "piracy")
