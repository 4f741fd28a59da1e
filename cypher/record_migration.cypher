MERGE (m:Migration {version: $version})
SET m.name = $name, m.applied_at = $now, m.changed = $changed
