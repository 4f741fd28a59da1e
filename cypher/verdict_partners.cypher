// The drawers a verdict pairs with this one: such a pair is never pending again (design §6).
MATCH (:Drawer {id: $id})-[:DEDUP_CHECKED]-(other:Drawer)
RETURN other.id AS id
