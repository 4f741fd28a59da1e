CREATE INDEX review_link_status IF NOT EXISTS FOR ()-[l:POSSIBLY_SAME_AS]-() ON (l.status)
