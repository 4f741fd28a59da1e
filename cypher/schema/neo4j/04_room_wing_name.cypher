CREATE CONSTRAINT room_wing_name IF NOT EXISTS FOR (r:Room) REQUIRE (r.wing, r.name) IS UNIQUE
