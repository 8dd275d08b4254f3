"""TED-SE (paper §3.2, appendix A.1): tree edit distance with semantic node equality.

The reference and hypothesis become dependency trees over their lemmas (appendix A.1:
nodes are the lemmatised words, edges the parser's head links, punctuation left out).
Both trees hang under the imaginary root ``w_0`` of §2.2, so texts of several sentences
(several parser roots) are still one tree, and the two ``w_0`` always match.

The distance is Zhang & Shasha's (1989), implemented here (see :func:`tree_edit_distance`
for why not with ``zss``), with insert and delete costing 1, and a change costing 0 when
the two nodes are *equal* and 1 otherwise.
Equal means: the same lemma, or the cosine of the two words' contextual vectors above
theta = 0.65 (the released code ignored theta and charged 1 for every edit, so its
TED-SE never looked at the words).

Voice: each passive clause is compared as its active (:func:`active_tree`): the auxiliary *be*
and the agent's *by* leave the tree, the agent takes the subject's place (first child of the
verb) and the passive subject the object's (right after the verb). A passive and its active
then differ only where their words do, so TED-SE compares who did what to whom, not the
voice (departure from the paper, measured in docs/rome.md: the passive suite's variants lost
a median 0.13 of F_ted to the reordered tree, a tenth of them more than 0.38).

Normalisation: with unit costs the distance never exceeds ``n_R + n_H`` (delete every
reference node, insert every hypothesis node), so ``F_ted = 1 - TED / (n_R + n_H)``
lies in [0, 1]: 1 for trees that match node for node, 0.5 for same-shaped trees whose
words all differ, lower when the shapes differ too.
"""

from __future__ import annotations

import numpy as np

from rome.metric.words import (
    PASSIVE_SUBJECTS,
    SPACY_AGENT,
    UD_AGENT,
    Words,
    different_function_words,
    passive_markers,
    same_lemma,
    word_rules,
)

THETA = 0.65
ROOT = -1
#: a tree as TED-SE walks it: ``{word: head}`` and each word's sort key among its siblings
Tree = tuple[dict[int, int], dict[int, float]]


def active_tree(words: Words) -> Tree:
    """The dependency tree with every passive clause turned active: ``{word: head}`` of the
    words kept and each word's sort key among its siblings (the word order, except that an
    agent goes first under its verb and a passive subject right after the verb)."""
    heads = dict(enumerate(words.heads))
    keys = {i: float(i) for i in heads}
    deps = words.deps or ("",) * len(heads)
    dropped = set(passive_markers(words))
    for i, dep in enumerate(deps):
        agent = None
        if dep == SPACY_AGENT:
            agent = next((c for c, h in heads.items() if h == i and c != i), None)
        elif dep == UD_AGENT:
            agent = i
        verb = heads[i]
        if agent is not None and verb != ROOT:
            heads[agent], keys[agent] = verb, -1.0
    for i, dep in enumerate(deps):
        if dep in PASSIVE_SUBJECTS and heads[i] != ROOT:
            keys[i] = heads[i] + 0.5
    for i in sorted(dropped):  # children of a dropped word hang from its head instead
        for child, head in heads.items():
            if head == i:
                heads[child] = heads[i]
    return {i: h for i, h in heads.items() if i not in dropped}, keys


def _postorder(heads: dict[int, int], keys: dict[int, float]) -> tuple[list[int], list[int], list[int]]:
    """Post-order of the tree under ``w_0``: word index per node (``ROOT`` last), the
    left-most leaf descendant of each node, and the key roots (Zhang & Shasha's terms).
    ``heads`` maps each node to its head; siblings are ordered by ``keys``."""
    children: dict[int, list[int]] = {ROOT: []}
    for i, head in heads.items():
        children.setdefault(head, []).append(i)
    for kids in children.values():
        kids.sort(key=keys.__getitem__)
    order: list[int] = []
    leftmost: list[int] = []
    stack: list[tuple[int, int]] = [(ROOT, 0)]
    first_leaf: dict[int, int] = {}
    while stack:  # iterative post-order (deep chains stay within Python's recursion limit)
        node, k = stack.pop()
        kids = children.get(node, [])
        if k < len(kids):
            stack.append((node, k + 1))
            stack.append((kids[k], 0))
            continue
        position = len(order)
        first_leaf[node] = first_leaf[kids[0]] if kids else position
        order.append(node)
        leftmost.append(first_leaf[node])
    seen: set[int] = set()
    keyroots = []
    for position in range(len(order) - 1, -1, -1):
        if leftmost[position] not in seen:
            seen.add(leftmost[position])
            keyroots.append(position)
    return order, leftmost, sorted(keyroots)


def node_equality(ref: Words, hyp: Words, theta: float = THETA, rules: bool = True) -> np.ndarray:
    """(p, q) boolean matrix: one word (:func:`rome.metric.words.word_rules`: same lemma, unless an
    inflection or a verb group's tense or aspect that carries meaning differs; same number), or cosine of
    the words' vectors > ``theta``; never two different numbers (as in the EMD), nor two different
    prepositions or articles (docs/rome.md, D6): a tree with *on* where the other has *in* is not
    the same tree, however close the two words' vectors are (one closed class shares every context).
    ``rules=False`` (``rome/paper``): the paper's equality, same lemma (a node *is* its lemma) or cosine >
    ``theta``."""
    if not len(ref) or not len(hyp):
        return np.zeros((len(ref), len(hyp)), dtype=bool)
    if not rules:
        return (ref.unit @ hyp.unit.T > theta) | same_lemma(ref, hyp)
    one_word, different = word_rules(ref, hyp)
    return ((ref.unit @ hyp.unit.T > theta) | one_word) & ~(different | different_function_words(ref, hyp))


def tree_edit_distance(ref: Words, hyp: Words, theta: float = THETA) -> float:
    """Zhang-Shasha distance between the two dependency trees with TED-SE's node equality.

    Written here rather than calling the ``zss`` package: zss records the edit script of
    every sub-problem whether asked or not and took ~6 ms for a pair of 8-word sentences,
    more than the encoder; this loop computes the same numbers (tests compare it with
    zss on random trees) several times faster.
    """
    return _distance(ref, hyp, active_tree(ref), active_tree(hyp), theta)


def parse_tree(words: Words) -> Tree:
    """The parser's dependency tree as it is (``rome/paper``: no voice rule), in word order."""
    return dict(enumerate(words.heads)), {i: float(i) for i in range(len(words))}


def _distance(ref: Words, hyp: Words, tree_a: Tree, tree_b: Tree, theta: float, rules: bool = True) -> float:
    equal = node_equality(ref, hyp, theta, rules)
    order_a, left_a, keys_a = _postorder(*tree_a)
    order_b, left_b, keys_b = _postorder(*tree_b)
    change = [
        [0 if (a == ROOT) == (b == ROOT) and (a == ROOT or equal[a, b]) else 1 for b in order_b]
        for a in order_a
    ]
    dist = [[0] * len(order_b) for _ in order_a]
    for i in keys_a:
        for j in keys_b:
            _forest_distance(i, j, left_a, left_b, change, dist)
    return float(dist[-1][-1])


def _forest_distance(i: int, j: int, left_a, left_b, change, dist) -> None:
    """Zhang & Shasha's inner loop for key roots ``i`` and ``j`` (unit insert/delete costs)."""
    li, lj = left_a[i], left_b[j]
    m, n = i - li + 2, j - lj + 2
    fd = [[0] * n for _ in range(m)]
    for x in range(1, m):
        fd[x][0] = x
    for y in range(1, n):
        fd[0][y] = y
    lefts_b = left_b[lj : lj + n - 1]  # column y's left-most leaf is lefts_b[y - 1]
    for x in range(1, m):
        a = x + li - 1
        row, prev, left_x, dist_a, change_a = fd[x], fd[x - 1], left_a[a], dist[a], change[a]
        whole_x = left_x == li
        for y in range(1, n):
            b = y + lj - 1
            left_y = lefts_b[y - 1]
            # the smallest of delete, insert and match, compared inline (min() is a call per cell)
            best = prev[y] + 1
            if row[y - 1] + 1 < best:
                best = row[y - 1] + 1
            if whole_x and left_y == lj:
                match = prev[y - 1] + change_a[b]
                if match < best:
                    best = match
                row[y] = dist_a[b] = best
            else:
                match = fd[left_x - li][left_y - lj] + dist_a[b]
                row[y] = best if best <= match else match


def ted_similarity(ref: Words, hyp: Words, theta: float = THETA, rules: bool = True) -> float:
    """``F_ted = 1 - TED / (n_R + n_H)`` over the trees' nodes (see the module doc for why this bound).

    ``rules=False`` (``rome/paper``): the parser's trees as they are and the paper's node equality.
    """
    tree = active_tree if rules else parse_tree
    tree_a, tree_b = tree(ref), tree(hyp)
    total = len(tree_a[0]) + len(tree_b[0])
    if total == 0:
        return 1.0
    distance = _distance(ref, hyp, tree_a, tree_b, theta, rules)
    return float(np.clip(1.0 - distance / total, 0.0, 1.0))
