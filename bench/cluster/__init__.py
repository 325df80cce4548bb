"""``bash bench/run.sh --only cluster``: several hosts on this one machine,
as Linux network namespaces, playing games through a load balancer while
hosts fail (see ``__main__`` and docs/scaling.md)."""
