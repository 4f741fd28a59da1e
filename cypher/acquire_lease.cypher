// Take a named lease for $ms on the database's clock (instances' clocks may disagree): free
// when nobody holds it, its time ran out, or $holder holds it already. The caller holds the
// lease's lock, so the read below is of the last commit.
MERGE (l:Lock {name: $name})
WITH l, (l.holder IS NULL OR l.expires IS NULL OR l.expires < timestamp()
  OR l.holder = $holder) AS free
FOREACH (taking IN CASE WHEN free THEN [l] ELSE [] END |
  SET taking.holder = $holder, taking.expires = timestamp() + $ms)
RETURN free AS acquired
