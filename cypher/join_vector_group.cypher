// A drawer's vector is its group's: a current drawer is a member, and so has a pending pair
// with every other member and with every member of a paired group (design §6). A closed
// drawer is a member of none.
MATCH (d:Drawer {id: $id})
SET d.vector_hash = CASE WHEN d.valid_to IS NULL THEN $hash ELSE null END
RETURN d.id AS id
