// The current drawers stamped with a value of the drawer sequence in ($low, $high], whole as a
// write compares with them (`graph.known_drawers.KnownDrawer.read`): the in-memory index makes
// them known after its build (`graph.drawer_index.DrawerIndex.warm`), by the indexed `seq`.
MATCH (d:Drawer)
WHERE d.seq > $low AND d.seq <= $high AND d.valid_to IS NULL
RETURN [d.id, d.content, d.norm_len, d.wing, d.room, d.agent, d.kind] AS drawer, d.seq AS seq
