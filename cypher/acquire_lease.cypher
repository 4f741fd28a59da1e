MERGE (l:Lock {name: $name})
WITH l, (l.holder IS NULL OR l.until < $now OR l.holder = $holder) AS free
FOREACH (taking IN CASE WHEN free THEN [l] ELSE [] END |
  SET taking.holder = $holder, taking.until = $until)
RETURN free AS acquired
