DROP INDEX FOR (e:Entity) ON (e.dkeys)
