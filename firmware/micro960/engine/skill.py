"""Playing below full strength: skill 0-19 (the console's `level`, UCI's
Skill Level option).

At lower skill Search.think stops at a shallower depth and keeps every root
move's score; then it sometimes plays a near-best move instead of the best,
as chosen here. At full strength (skill 20, the default) nothing loads this.
"""


def weaker_choice(search, best):
    """Sometimes a near-best root move instead of `best`: the lower the
    skill, the more often and the further from the best score."""
    count = search.root_count
    if count < 2:
        return best
    margin = 20 + (20 - search.skill) * 12
    chance = (20 - search.skill) * 4  # percent
    if search.rng.getrandbits(7) % 100 >= chance:
        return best
    top = max(search.root_scores[i] for i in range(count))
    good = [search.root_moves[i] for i in range(count) if search.root_scores[i] >= top - margin]
    return good[search.rng.getrandbits(8) % len(good)]
