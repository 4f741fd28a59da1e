MATCH (:Drawer {id: $id})-[s:SIMILAR_TO]-(:Drawer {id: $other})
DELETE s
RETURN count(*) AS deleted
