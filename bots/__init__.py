"""Bots that plan: strategies for either game (:mod:`.strategies`) and the
in-process arena that plays them through the pure rules (:mod:`.arena`).

The reference HTTP bot (:mod:`bots.client`) stays a dependency-free example;
these strategies have its shape and plug into it.
"""
