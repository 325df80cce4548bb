BEGIN TRANSACTION;
CREATE TABLE batches (
    batch_no      INTEGER PRIMARY KEY AUTOINCREMENT,
    batch_id      TEXT NOT NULL UNIQUE,
    organiser_id  TEXT NOT NULL REFERENCES organisers (organiser_id),
    name          TEXT,
    game_type     TEXT NOT NULL,
    tables        INTEGER NOT NULL CHECK (tables >= 1),
    created_at    TEXT NOT NULL
);
CREATE TABLE deadlines (
    game_id   TEXT PRIMARY KEY REFERENCES games (game_id),
    version   INTEGER NOT NULL CHECK (version >= 1),
    due_at    TEXT
) WITHOUT ROWID;
CREATE TABLE dispatch_cursors (
    name      TEXT PRIMARY KEY,
    position  INTEGER NOT NULL CHECK (position >= 0)
) WITHOUT ROWID;
INSERT INTO "dispatch_cursors" VALUES('webhooks',0);
CREATE TABLE events (
    position         INTEGER PRIMARY KEY,   -- global log order (rowid), assigned under BEGIN IMMEDIATE
    game_id          TEXT NOT NULL REFERENCES games (game_id),
    seq              INTEGER NOT NULL CHECK (seq >= 1),
    type             TEXT NOT NULL CHECK (type <> ''),
    schema_version   INTEGER NOT NULL CHECK (schema_version >= 1),
    payload          TEXT NOT NULL,         -- canonical JSON text, as hashed
    recorded_at      TEXT NOT NULL,
    seat             INTEGER CHECK (seat >= 0),
    idempotency_key  TEXT,
    prev_hash        TEXT NOT NULL,
    hash             TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
INSERT INTO "events" VALUES(1,'0842d884a4f9b0d5',1,'game_set_up',1,'{"board_version":"cable-car/1","hands":[["straight","straight","straight","curve","curve"],["straight","straight","straight","curve","curve"],["straight","straight","straight","curve","curve"]],"lines":["4","3","2"],"pile":["straight","straight","straight","straight","tree_crossing","straight","double_curve","curve","tree_crossing","tree_wye","straight","tree_wye","straight","straight","straight","curve","tree_roundabout","switch_left","switch_left","straight","tree_wye","curve","double_curve","curve","straight","curve","tree_crossing","switch_right","curve","curve","curve","tree_wye","straight","two_opposite_curves","switch_left","switch_right","tree_three_way","curve","curve","tree_straight_two_curves_a","double_curve","straight","switch_right","straight","two_opposite_curves","two_opposite_curves","curve","switch_left","tree_wye","curve","switch_right","tree_crossing","curve","tree_roundabout","curve","tree_three_way","tree_three_way","double_curve","tree_straight_two_curves_b","curve","double_curve","straight","two_opposite_curves","tree_three_way","straight","curve","curve","straight","straight","straight","curve","straight","straight","tree_straight_two_curves_a","switch_right","switch_right","two_opposite_curves","double_curve","two_opposite_curves","curve","switch_right","tree_three_way","straight","switch_right","tree_straight_two_curves_b","curve","double_curve","straight","double_curve","curve","switch_right","switch_left","straight","switch_right","double_curve","tree_three_way","double_curve","straight","straight","tree_roundabout","curve","switch_left","switch_left","straight","tree_roundabout","switch_left","switch_left","curve","tree_wye","switch_left","curve"],"pile_count":111,"players":["Ada","Bo","Cy"],"rng_counter":120,"rng_key":"550d11bc86e0dde77aa0c2eb96bb90cd84000e13e088f3e96e842c9d8cc01fe2","route_cards":["B2","B5","B1"],"routes":[["A","D","M"],["D","H","K"],["C","G","K"]],"rules_version":"cable-car/3","start_seat":0}','2026-11-27T10:58:51.040910Z',NULL,NULL,'0000000000000000000000000000000000000000000000000000000000000000','47443cace555a55d486e8dc840b9464799c6515fa3b5d5225976f6c65f454532');
INSERT INTO "events" VALUES(2,'0842d884a4f9b0d5',2,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":6,"replaced":null,"rotation":3,"row":3,"stops":["M"],"tile":"curve"},{"col":3,"replaced":null,"rotation":0,"row":9,"stops":["D"],"tile":"curve"}],"seat":0}','2026-11-27T10:58:51.197416Z',0,NULL,'47443cace555a55d486e8dc840b9464799c6515fa3b5d5225976f6c65f454532','1b3e1a105f10a72ee44b2332781bd9f16cf4c35f98fdc6dda584d6ee1bff0654');
INSERT INTO "events" VALUES(3,'0842d884a4f9b0d5',3,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["straight","straight"]}','2026-11-27T10:58:51.197416Z',0,NULL,'1b3e1a105f10a72ee44b2332781bd9f16cf4c35f98fdc6dda584d6ee1bff0654','3a06c56e5961b03f5c2c96e0390aaacd2797d6ac961d2eccff4c3c76e6df7c8d');
INSERT INTO "events" VALUES(4,'0842d884a4f9b0d5',4,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":6,"replaced":null,"rotation":3,"row":9,"stops":["K"],"tile":"curve"},{"col":7,"replaced":null,"rotation":1,"row":8,"stops":[],"tile":"straight"}],"seat":1}','2026-11-27T10:58:51.266219Z',1,NULL,'3a06c56e5961b03f5c2c96e0390aaacd2797d6ac961d2eccff4c3c76e6df7c8d','1d0f1b57d813843cc15270da73b85bee8f987d7f3c946c161e8f885fbce11fca');
INSERT INTO "events" VALUES(5,'0842d884a4f9b0d5',5,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["straight","straight"]}','2026-11-27T10:58:51.266219Z',1,NULL,'1d0f1b57d813843cc15270da73b85bee8f987d7f3c946c161e8f885fbce11fca','9cfb0f366561dd8661e86fad920e2fcc77e1c83c4d9b3baf317d9ba24eed7ecf');
INSERT INTO "events" VALUES(6,'0842d884a4f9b0d5',6,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":5,"replaced":null,"rotation":3,"row":11,"stops":["C"],"tile":"curve"},{"col":8,"replaced":null,"rotation":1,"row":2,"stops":["G"],"tile":"curve"}],"seat":2}','2026-11-27T10:58:51.332013Z',2,NULL,'9cfb0f366561dd8661e86fad920e2fcc77e1c83c4d9b3baf317d9ba24eed7ecf','5a3ad259f0f84703f4fbf1be0f1f3ea087f208d41b8ca9bbc33bc5617df29d45');
INSERT INTO "events" VALUES(7,'0842d884a4f9b0d5',7,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["tree_crossing","straight"]}','2026-11-27T10:58:51.332013Z',2,NULL,'5a3ad259f0f84703f4fbf1be0f1f3ea087f208d41b8ca9bbc33bc5617df29d45','056c7d0d77269791a10b6036caa3fd77f12f8f2df3fecf25e06661e7f24858aa');
INSERT INTO "events" VALUES(8,'0842d884a4f9b0d5',8,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":6,"replaced":null,"rotation":0,"row":1,"stops":[],"tile":"straight"},{"col":6,"replaced":null,"rotation":0,"row":2,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:51.370698Z',0,NULL,'056c7d0d77269791a10b6036caa3fd77f12f8f2df3fecf25e06661e7f24858aa','e1e6bb0be4512c12bef2d9dd271aa11ebbaaa3ea6a53acffebeedec4e6e42cea');
INSERT INTO "events" VALUES(9,'0842d884a4f9b0d5',9,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["double_curve","curve"]}','2026-11-27T10:58:51.370698Z',0,NULL,'e1e6bb0be4512c12bef2d9dd271aa11ebbaaa3ea6a53acffebeedec4e6e42cea','34e6887f6719942aaf6e669bebd4ca61ac6bf985f7b845629026dd72e9e1f02d');
INSERT INTO "events" VALUES(10,'0842d884a4f9b0d5',10,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":2,"row":5,"stops":["H"],"tile":"curve"},{"col":1,"replaced":null,"rotation":1,"row":3,"stops":[],"tile":"straight"}],"seat":1}','2026-11-27T10:58:51.421250Z',1,NULL,'34e6887f6719942aaf6e669bebd4ca61ac6bf985f7b845629026dd72e9e1f02d','73008a989db9061434ca1d605c01106515464e9847e1645c2705631079a20f5d');
INSERT INTO "events" VALUES(11,'0842d884a4f9b0d5',11,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["tree_crossing","tree_wye"]}','2026-11-27T10:58:51.421250Z',1,NULL,'73008a989db9061434ca1d605c01106515464e9847e1645c2705631079a20f5d','bf17648fe7d03bd9e7b1579b51bf724f7c8fe0a72e9b3c71f39aebefd73a849b');
INSERT INTO "events" VALUES(12,'0842d884a4f9b0d5',12,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":1,"replaced":null,"rotation":1,"row":11,"stops":[],"tile":"straight"},{"col":2,"replaced":null,"rotation":1,"row":11,"stops":[],"tile":"straight"}],"seat":2}','2026-11-27T10:58:51.463750Z',2,NULL,'bf17648fe7d03bd9e7b1579b51bf724f7c8fe0a72e9b3c71f39aebefd73a849b','c3664f6a18ee92252b72bf51c4d9f2d1dda7131cc6db43022d0209bc940e470e');
INSERT INTO "events" VALUES(13,'0842d884a4f9b0d5',13,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["straight","tree_wye"]}','2026-11-27T10:58:51.463750Z',2,NULL,'c3664f6a18ee92252b72bf51c4d9f2d1dda7131cc6db43022d0209bc940e470e','0d142620d98727bf1ca1553cdafaa90d8e62023c88c8f72b4f4e8a097a73d7d3');
INSERT INTO "events" VALUES(14,'0842d884a4f9b0d5',14,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":2,"row":8,"stops":["A"],"tile":"curve"},{"col":5,"replaced":null,"rotation":1,"row":3,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:51.511092Z',0,NULL,'0d142620d98727bf1ca1553cdafaa90d8e62023c88c8f72b4f4e8a097a73d7d3','d46b2bcc49c88407b9213ae32fc23d191cf3f529b614322e31a5233b05093ef0');
INSERT INTO "events" VALUES(15,'0842d884a4f9b0d5',15,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["straight","straight"]}','2026-11-27T10:58:51.511092Z',0,NULL,'d46b2bcc49c88407b9213ae32fc23d191cf3f529b614322e31a5233b05093ef0','3e5af64e3386cb6c644ecfd22d56f057954951864ac6b93cc8dd407ace14e748');
INSERT INTO "events" VALUES(16,'0842d884a4f9b0d5',16,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":2,"replaced":null,"rotation":1,"row":3,"stops":[],"tile":"straight"},{"col":3,"replaced":null,"rotation":0,"row":4,"stops":[],"tile":"straight"}],"seat":1}','2026-11-27T10:58:51.567101Z',1,NULL,'3e5af64e3386cb6c644ecfd22d56f057954951864ac6b93cc8dd407ace14e748','b44d44a5a07953956b236ef2cca83345e8689b51193f78ba00d525bcc1640dbd');
INSERT INTO "events" VALUES(17,'0842d884a4f9b0d5',17,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["straight","curve"]}','2026-11-27T10:58:51.567101Z',1,NULL,'b44d44a5a07953956b236ef2cca83345e8689b51193f78ba00d525bcc1640dbd','69cc055f3bb95b12186c11e9a8b1ebce4757bf95f918e3ec86c286f448eb710a');
INSERT INTO "events" VALUES(18,'0842d884a4f9b0d5',18,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":3,"replaced":null,"rotation":1,"row":11,"stops":[],"tile":"straight"},{"col":4,"replaced":null,"rotation":1,"row":11,"stops":[],"tile":"straight"}],"seat":2}','2026-11-27T10:58:51.620882Z',2,NULL,'69cc055f3bb95b12186c11e9a8b1ebce4757bf95f918e3ec86c286f448eb710a','81ffbac526ab8205978082a003a70b6d82ed2b1648eccf9c32b7fa968cc86b70');
INSERT INTO "events" VALUES(19,'0842d884a4f9b0d5',19,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["tree_roundabout","switch_left"]}','2026-11-27T10:58:51.620882Z',2,NULL,'81ffbac526ab8205978082a003a70b6d82ed2b1648eccf9c32b7fa968cc86b70','5c2a9a5562f79cc89196099d47473db141a6f8ab185881c2aafc4564ab314e39');
INSERT INTO "events" VALUES(20,'0842d884a4f9b0d5',20,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":4,"replaced":null,"rotation":1,"row":3,"stops":["F"],"tile":"straight"},{"col":3,"replaced":null,"rotation":0,"row":5,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:51.677732Z',0,NULL,'5c2a9a5562f79cc89196099d47473db141a6f8ab185881c2aafc4564ab314e39','9a44d9d6bb53858eef423169e128049b8aac120b2372ed290225c11901457872');
INSERT INTO "events" VALUES(21,'0842d884a4f9b0d5',21,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["switch_left","straight"]}','2026-11-27T10:58:51.677732Z',0,NULL,'9a44d9d6bb53858eef423169e128049b8aac120b2372ed290225c11901457872','e962a63df1343d0f8844c4cb95d800483df8a3cdea42c066a71e76fbdb5c84e3');
INSERT INTO "events" VALUES(22,'0842d884a4f9b0d5',22,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":3,"replaced":null,"rotation":0,"row":6,"stops":[],"tile":"straight"},{"col":3,"replaced":null,"rotation":0,"row":7,"stops":["L"],"tile":"straight"}],"seat":1}','2026-11-27T10:58:51.746427Z',1,NULL,'e962a63df1343d0f8844c4cb95d800483df8a3cdea42c066a71e76fbdb5c84e3','b7f02fff856af7064a13466fc7850f00ebaf6022aa9deb5487afd0c0c7ec4ed8');
INSERT INTO "events" VALUES(23,'0842d884a4f9b0d5',23,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["tree_wye","curve"]}','2026-11-27T10:58:51.746427Z',1,NULL,'b7f02fff856af7064a13466fc7850f00ebaf6022aa9deb5487afd0c0c7ec4ed8','7c053a0113c82719c0b0a1bc92457ac07c98de0c2438a759f204835118ed26e3');
INSERT INTO "events" VALUES(24,'0842d884a4f9b0d5',24,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":5,"replaced":null,"rotation":0,"row":10,"stops":[],"tile":"straight"},{"col":5,"replaced":null,"rotation":3,"row":9,"stops":[],"tile":"switch_left"}],"seat":2}','2026-11-27T10:58:51.811374Z',2,NULL,'7c053a0113c82719c0b0a1bc92457ac07c98de0c2438a759f204835118ed26e3','f5ec21a031e0d125cda89abd6563cbee6062b0fe36787613ad98730175a3390d');
INSERT INTO "events" VALUES(25,'0842d884a4f9b0d5',25,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["double_curve","curve"]}','2026-11-27T10:58:51.811374Z',2,NULL,'f5ec21a031e0d125cda89abd6563cbee6062b0fe36787613ad98730175a3390d','3aea974da5206d8f15c084a949ffba35d0d05845bc4c70b80d7300da80ac8dd9');
INSERT INTO "events" VALUES(26,'0842d884a4f9b0d5',26,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":3,"replaced":null,"rotation":0,"row":8,"stops":[],"tile":"straight"},{"col":4,"replaced":null,"rotation":1,"row":9,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:51.867724Z',0,NULL,'3aea974da5206d8f15c084a949ffba35d0d05845bc4c70b80d7300da80ac8dd9','cd790f8806c384c559a5f2ca6cd9118d4cb1af6de0fe86052272d357ac3586e9');
INSERT INTO "events" VALUES(27,'0842d884a4f9b0d5',27,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["straight","curve"]}','2026-11-27T10:58:51.867724Z',0,NULL,'cd790f8806c384c559a5f2ca6cd9118d4cb1af6de0fe86052272d357ac3586e9','0f8decf23f4fee75b2d12697d1a826f41422e6df4a0d8b098232a12c5bcc5aa2');
INSERT INTO "events" VALUES(28,'0842d884a4f9b0d5',28,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":6,"replaced":null,"rotation":1,"row":8,"stops":[],"tile":"curve"},{"col":9,"replaced":null,"rotation":3,"row":8,"stops":[],"tile":"curve"}],"seat":1}','2026-11-27T10:58:51.902010Z',1,NULL,'0f8decf23f4fee75b2d12697d1a826f41422e6df4a0d8b098232a12c5bcc5aa2','ca96dcc304aba7b1038cdd1ddc962b60d3ece1bee6783db11d6a37012458664b');
INSERT INTO "events" VALUES(29,'0842d884a4f9b0d5',29,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["tree_crossing","switch_right"]}','2026-11-27T10:58:51.902010Z',1,NULL,'ca96dcc304aba7b1038cdd1ddc962b60d3ece1bee6783db11d6a37012458664b','569b818aedd6c1ba98f1261a153bd22dc914c085d7f604fa9a04491fdc17746c');
INSERT INTO "events" VALUES(30,'0842d884a4f9b0d5',30,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":10,"replaced":null,"rotation":2,"row":2,"stops":[],"tile":"curve"},{"col":8,"replaced":null,"rotation":0,"row":8,"stops":[],"tile":"double_curve"}],"seat":2}','2026-11-27T10:58:51.935537Z',2,NULL,'569b818aedd6c1ba98f1261a153bd22dc914c085d7f604fa9a04491fdc17746c','a53dccb1f03020df496217ab696af68ddb4e1d010189fbc6f910a79a46c8b0ff');
INSERT INTO "events" VALUES(31,'0842d884a4f9b0d5',31,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["curve","curve"]}','2026-11-27T10:58:51.935537Z',2,NULL,'a53dccb1f03020df496217ab696af68ddb4e1d010189fbc6f910a79a46c8b0ff','015f5eada1e97309b71fd44008c685593bdf3e1c4bd31c3a04d333665e36e2cc');
INSERT INTO "events" VALUES(32,'0842d884a4f9b0d5',32,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":8,"replaced":null,"rotation":1,"row":7,"stops":[],"tile":"curve"},{"col":11,"replaced":null,"rotation":0,"row":9,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:51.969049Z',0,NULL,'015f5eada1e97309b71fd44008c685593bdf3e1c4bd31c3a04d333665e36e2cc','6f847219723cd1a8a42ca6644451b5f177e517922677bdbc6f753393a460d63d');
INSERT INTO "events" VALUES(33,'0842d884a4f9b0d5',33,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["curve","tree_wye"]}','2026-11-27T10:58:51.969049Z',0,NULL,'6f847219723cd1a8a42ca6644451b5f177e517922677bdbc6f753393a460d63d','46f8e1503518de440f2e45c1a11c7e4f54e76eba235d32966754557583f0880e');
INSERT INTO "events" VALUES(34,'0842d884a4f9b0d5',34,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":10,"replaced":null,"rotation":0,"row":7,"stops":[],"tile":"tree_crossing"},{"col":3,"replaced":null,"rotation":1,"row":3,"stops":[],"tile":"switch_right"}],"seat":1}','2026-11-27T10:58:52.006568Z',1,NULL,'46f8e1503518de440f2e45c1a11c7e4f54e76eba235d32966754557583f0880e','cae5d000246d3d59d4c67f2f8b8189a014bfd6215d3dfcc50e64cf89f89b07f5');
INSERT INTO "events" VALUES(35,'0842d884a4f9b0d5',35,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["straight","two_opposite_curves"]}','2026-11-27T10:58:52.006568Z',1,NULL,'cae5d000246d3d59d4c67f2f8b8189a014bfd6215d3dfcc50e64cf89f89b07f5','30ca9f845bca018d4eda3b51874533f88af40b1a81fa09987aacff9802e38010');
INSERT INTO "events" VALUES(36,'0842d884a4f9b0d5',36,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":3,"row":7,"stops":[],"tile":"curve"},{"col":10,"replaced":null,"rotation":0,"row":5,"stops":[],"tile":"curve"}],"seat":2}','2026-11-27T10:58:52.054480Z',2,NULL,'30ca9f845bca018d4eda3b51874533f88af40b1a81fa09987aacff9802e38010','7fda8796df2f86f708669af7cd8f46b313e7d712110c5de66bc6cf8c8306bdcd');
INSERT INTO "events" VALUES(37,'0842d884a4f9b0d5',37,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["switch_left","switch_right"]}','2026-11-27T10:58:52.054480Z',2,NULL,'7fda8796df2f86f708669af7cd8f46b313e7d712110c5de66bc6cf8c8306bdcd','3f4945cf7c5bdfbba815bf60d3364266f602e77cd43be1080662c2eb4b9bf95f');
INSERT INTO "events" VALUES(38,'0842d884a4f9b0d5',38,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":10,"replaced":null,"rotation":1,"row":6,"stops":["I"],"tile":"curve"},{"col":11,"replaced":null,"rotation":0,"row":10,"stops":[],"tile":"straight"}],"seat":0}','2026-11-27T10:58:52.146370Z',0,NULL,'3f4945cf7c5bdfbba815bf60d3364266f602e77cd43be1080662c2eb4b9bf95f','c8aa86d47e13a8c4276a68c490f593db58a1ed692ba65d3e5d759ce3c45de0a5');
INSERT INTO "events" VALUES(39,'0842d884a4f9b0d5',39,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["tree_three_way","curve"]}','2026-11-27T10:58:52.146370Z',0,NULL,'c8aa86d47e13a8c4276a68c490f593db58a1ed692ba65d3e5d759ce3c45de0a5','8ffe9e75257551a378909874a4f66d3ea287314f586fa67fdb42acfd964c5766');
INSERT INTO "events" VALUES(40,'0842d884a4f9b0d5',40,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":12,"replaced":null,"rotation":1,"row":11,"stops":[],"tile":"straight"},{"col":11,"replaced":null,"rotation":3,"row":6,"stops":[],"tile":"tree_wye"}],"seat":1}','2026-11-27T10:58:52.214769Z',1,NULL,'8ffe9e75257551a378909874a4f66d3ea287314f586fa67fdb42acfd964c5766','089ecf13ac033d0d1e2235ff8b2e7a5c4168cfac2b0cbf603bbb09680d39372a');
INSERT INTO "events" VALUES(41,'0842d884a4f9b0d5',41,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["curve","tree_straight_two_curves_a"]}','2026-11-27T10:58:52.214769Z',1,NULL,'089ecf13ac033d0d1e2235ff8b2e7a5c4168cfac2b0cbf603bbb09680d39372a','771072e1f0b7429afcb0a1ca2ae4722d51e98b6833e3d72be38d590f42836a96');
INSERT INTO "events" VALUES(42,'0842d884a4f9b0d5',42,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":9,"replaced":null,"rotation":3,"row":7,"stops":[],"tile":"switch_left"},{"col":9,"replaced":null,"rotation":3,"row":4,"stops":[],"tile":"switch_right"}],"seat":2}','2026-11-27T10:58:52.276963Z',2,NULL,'771072e1f0b7429afcb0a1ca2ae4722d51e98b6833e3d72be38d590f42836a96','3182e84738e84b2deca57eac47bc9ece869eeba9cf36164ad15732ade7376834');
INSERT INTO "events" VALUES(43,'0842d884a4f9b0d5',43,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["double_curve","straight"]}','2026-11-27T10:58:52.276963Z',2,NULL,'3182e84738e84b2deca57eac47bc9ece869eeba9cf36164ad15732ade7376834','45bde009cf410fc47c079290dd98d56791a01a8fa572fce1e2d28ad69d15893f');
INSERT INTO "events" VALUES(44,'0842d884a4f9b0d5',44,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":10,"replaced":null,"rotation":0,"row":8,"stops":[],"tile":"curve"},{"col":11,"replaced":null,"rotation":2,"row":11,"stops":[],"tile":"switch_left"}],"seat":0}','2026-11-27T10:58:52.351287Z',0,NULL,'45bde009cf410fc47c079290dd98d56791a01a8fa572fce1e2d28ad69d15893f','13c8b80179f3cb67ab26d708b55672992cb2e284e9db5b18ed3ff99da1fd7415');
INSERT INTO "events" VALUES(45,'0842d884a4f9b0d5',45,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["switch_right","straight"]}','2026-11-27T10:58:52.351287Z',0,NULL,'13c8b80179f3cb67ab26d708b55672992cb2e284e9db5b18ed3ff99da1fd7415','6fd0479ce70d48644207edaddff1ead5bf697f7045853ca289223e220e837a11');
INSERT INTO "events" VALUES(46,'0842d884a4f9b0d5',46,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":9,"replaced":null,"rotation":1,"row":3,"stops":[],"tile":"curve"},{"col":10,"replaced":null,"rotation":3,"row":4,"stops":[],"tile":"tree_wye"}],"seat":1}','2026-11-27T10:58:52.432616Z',1,NULL,'6fd0479ce70d48644207edaddff1ead5bf697f7045853ca289223e220e837a11','39d5c0d168310c1478f505b35f12223584f49c31c7dc9b8b3a943824c7b2ceb7');
INSERT INTO "events" VALUES(47,'0842d884a4f9b0d5',47,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["two_opposite_curves","two_opposite_curves"]}','2026-11-27T10:58:52.432616Z',1,NULL,'39d5c0d168310c1478f505b35f12223584f49c31c7dc9b8b3a943824c7b2ceb7','ec1d4359a752c174f02105fe97346ce6d9c0d4324532fb2c04b03d3f284d317c');
INSERT INTO "events" VALUES(48,'0842d884a4f9b0d5',48,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":8,"replaced":null,"rotation":0,"row":3,"stops":[],"tile":"straight"},{"col":8,"replaced":null,"rotation":0,"row":4,"stops":[],"tile":"double_curve"}],"seat":2}','2026-11-27T10:58:52.513082Z',2,NULL,'ec1d4359a752c174f02105fe97346ce6d9c0d4324532fb2c04b03d3f284d317c','9734b2ad2537f9f9760e2fcf99d39810602b719f6382dd643dde83c569edcabe');
INSERT INTO "events" VALUES(49,'0842d884a4f9b0d5',49,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["curve","switch_left"]}','2026-11-27T10:58:52.513082Z',2,NULL,'9734b2ad2537f9f9760e2fcf99d39810602b719f6382dd643dde83c569edcabe','3898910952b40e53c7ae3aa3dc11c5d947b1ff42707cd328d2d12681af4920de');
INSERT INTO "events" VALUES(50,'0842d884a4f9b0d5',50,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":0,"row":12,"stops":[],"tile":"straight"},{"col":3,"replaced":{"rotation":1,"tile":"switch_right"},"rotation":2,"row":3,"stops":[],"tile":"tree_wye"}],"seat":0}','2026-11-27T10:58:52.606487Z',0,NULL,'3898910952b40e53c7ae3aa3dc11c5d947b1ff42707cd328d2d12681af4920de','8508d0c838c0e8ff74a986a9bc3c71d36f28f8fa1e545039915ab3767ee978fd');
INSERT INTO "events" VALUES(51,'0842d884a4f9b0d5',51,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["tree_wye"]}','2026-11-27T10:58:52.606487Z',0,NULL,'8508d0c838c0e8ff74a986a9bc3c71d36f28f8fa1e545039915ab3767ee978fd','249756ba26a9dbdce9d71fc08362b0d9bc83dfdc9b32d0c9646bfe0f904bf290');
INSERT INTO "events" VALUES(52,'0842d884a4f9b0d5',52,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":10,"replaced":null,"rotation":0,"row":3,"stops":[],"tile":"two_opposite_curves"},{"col":6,"replaced":{"rotation":0,"tile":"straight"},"rotation":0,"row":1,"stops":[],"tile":"tree_straight_two_curves_a"}],"seat":1}','2026-11-27T10:58:52.679281Z',1,NULL,'249756ba26a9dbdce9d71fc08362b0d9bc83dfdc9b32d0c9646bfe0f904bf290','252d0c4746f8353812afbefa9047acf9c1f00ace6479affecd79a115c73262e4');
INSERT INTO "events" VALUES(53,'0842d884a4f9b0d5',53,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["curve"]}','2026-11-27T10:58:52.679281Z',1,NULL,'252d0c4746f8353812afbefa9047acf9c1f00ace6479affecd79a115c73262e4','d99c1fa8c5cfc3de1bb2afd312e882255c8c2025ec2684c2d069b02b0058bd42');
INSERT INTO "events" VALUES(54,'0842d884a4f9b0d5',54,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":12,"replaced":null,"rotation":0,"row":6,"stops":[],"tile":"curve"},{"col":9,"replaced":null,"rotation":1,"row":2,"stops":[],"tile":"switch_left"}],"seat":2}','2026-11-27T10:58:52.754958Z',2,NULL,'d99c1fa8c5cfc3de1bb2afd312e882255c8c2025ec2684c2d069b02b0058bd42','1ba44fc888145fa2708c71bb6bc58bf51dc2514aff071f157b9e4cda83a2232f');
INSERT INTO "events" VALUES(55,'0842d884a4f9b0d5',55,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["switch_right","tree_crossing"]}','2026-11-27T10:58:52.754958Z',2,NULL,'1ba44fc888145fa2708c71bb6bc58bf51dc2514aff071f157b9e4cda83a2232f','606302a6170ada2f2f0b4b55aad67e44ddc52f4afcfe33dc7ae96c60d37758fb');
INSERT INTO "events" VALUES(56,'0842d884a4f9b0d5',56,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":3,"row":1,"stops":[],"tile":"tree_three_way"},{"col":12,"replaced":null,"rotation":0,"row":2,"stops":[],"tile":"switch_right"}],"seat":0}','2026-11-27T10:58:52.841523Z',0,NULL,'606302a6170ada2f2f0b4b55aad67e44ddc52f4afcfe33dc7ae96c60d37758fb','9ac1b1bddd15c2733571843763ddd9e3251e9eb32473af0c7f439031213fe607');
INSERT INTO "events" VALUES(57,'0842d884a4f9b0d5',57,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":0,"tiles":["curve","tree_roundabout"]}','2026-11-27T10:58:52.841523Z',0,NULL,'9ac1b1bddd15c2733571843763ddd9e3251e9eb32473af0c7f439031213fe607','cd773cd5c97fea635e5b64da007e9ef91a39e8e0e27951307a0de632950a8669');
INSERT INTO "events" VALUES(58,'0842d884a4f9b0d5',58,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":2,"replaced":null,"rotation":2,"row":12,"stops":[],"tile":"curve"},{"col":7,"replaced":null,"rotation":0,"row":12,"stops":[],"tile":"tree_crossing"}],"seat":1}','2026-11-27T10:58:52.880874Z',1,NULL,'cd773cd5c97fea635e5b64da007e9ef91a39e8e0e27951307a0de632950a8669','8d532861aeb0a3e134812f3e5af8578338f509692991745bd75dee07159a1b3f');
INSERT INTO "events" VALUES(59,'0842d884a4f9b0d5',59,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":1,"tiles":["curve","tree_three_way"]}','2026-11-27T10:58:52.880874Z',1,NULL,'8d532861aeb0a3e134812f3e5af8578338f509692991745bd75dee07159a1b3f','0e0c5b1a3e9788ceeb94ccbf046e3eb17c13b1ac88759fdb559bf82b935e1cfa');
INSERT INTO "events" VALUES(60,'0842d884a4f9b0d5',60,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":11,"replaced":null,"rotation":3,"row":3,"stops":[],"tile":"switch_right"},{"col":12,"replaced":null,"rotation":0,"row":3,"stops":[],"tile":"tree_roundabout"}],"seat":2}','2026-11-27T10:58:52.917887Z',2,NULL,'0e0c5b1a3e9788ceeb94ccbf046e3eb17c13b1ac88759fdb559bf82b935e1cfa','3e1e7cfa820d39e775f684a165696a756d6a7644ccfc6083a813a4ec01ac880c');
INSERT INTO "events" VALUES(61,'0842d884a4f9b0d5',61,'tiles_drawn',2,'{"ends_turn":true,"from_riders":[],"seat":2,"tiles":["tree_three_way","double_curve"]}','2026-11-27T10:58:52.917887Z',2,NULL,'3e1e7cfa820d39e775f684a165696a756d6a7644ccfc6083a813a4ec01ac880c','e766013e147ac6e5534b8456b426716a2e023fc7df6039f941215c43a0ec657e');
INSERT INTO "events" VALUES(62,'0842d884a4f9b0d5',62,'ride_started',1,'{"destination":"Potrero Hill","line":"4","origin":"Fisherman''s Wharf","route":["A","D","M"],"route_card":"B2","seat":0,"spaces":["Fisherman''s Wharf",[1,6],[2,6],[3,6],[3,5],[3,4],[3,3],[4,3],[5,3],[6,3],[7,3],[8,3],[9,3],[9,4],[9,5],[9,6],[8,6],[8,7],[8,8],[7,8],[7,9],[7,10],[7,11],[6,11],[6,10],[7,10],[8,10],[8,11],[9,11],[10,11],[11,11],[12,11],"Potrero Hill"]}','2026-11-27T10:58:52.967933Z',0,NULL,'e766013e147ac6e5534b8456b426716a2e023fc7df6039f941215c43a0ec657e','3f7b2735fb17b19a15b85c181a141f232ee313ecadebe073441a9e19f6008399');
INSERT INTO "events" VALUES(63,'0842d884a4f9b0d5',63,'die_rolled',2,'{"end":1,"ends_turn":true,"face":"1","rng_counter":121,"seat":0,"start":0}','2026-11-27T10:58:52.981784Z',0,NULL,'3f7b2735fb17b19a15b85c181a141f232ee313ecadebe073441a9e19f6008399','fa068c8200c2ee8e8264eb1d069e4e81b0692e4d29547b2588284901ce1d2f9a');
INSERT INTO "events" VALUES(64,'0842d884a4f9b0d5',64,'ride_started',1,'{"destination":"Mission Bay","line":"3","origin":"Presidio","route":["D","H","K"],"route_card":"B5","seat":1,"spaces":["Presidio",[3,1],[3,2],[3,3],[4,3],[5,3],[6,3],[7,3],[8,3],[9,3],[9,4],[9,5],[9,6],[8,6],[8,7],[8,8],[7,8],[7,9],[7,10],[7,11],[6,11],[5,11],[5,10],[4,10],[3,10],[3,9],[4,9],[4,10],[5,10],[5,11],[6,11],[6,10],[7,10],[8,10],[8,11],[9,11],[10,11],[11,11],[11,12],"Mission Bay"]}','2026-11-27T10:58:53.027904Z',1,NULL,'fa068c8200c2ee8e8264eb1d069e4e81b0692e4d29547b2588284901ce1d2f9a','45fc401a4d4f30555e1614c02597b071b2387534a78d60f69cd970be1ecc38dd');
INSERT INTO "events" VALUES(65,'0842d884a4f9b0d5',65,'die_rolled',2,'{"end":7,"ends_turn":true,"face":"H","rng_counter":122,"seat":1,"start":0}','2026-11-27T10:58:53.040937Z',1,NULL,'45fc401a4d4f30555e1614c02597b071b2387534a78d60f69cd970be1ecc38dd','ed67eae8bf0ce76cf654f441fc524c48fb169cc339b032d8bf2dc5041f36221b');
INSERT INTO "events" VALUES(66,'0842d884a4f9b0d5',66,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":3,"replaced":{"rotation":0,"tile":"straight"},"rotation":3,"row":5,"stops":[],"tile":"tree_three_way"},{"col":3,"replaced":null,"rotation":0,"row":1,"stops":[],"tile":"double_curve"}],"seat":2}','2026-11-27T10:58:53.103965Z',2,NULL,'ed67eae8bf0ce76cf654f441fc524c48fb169cc339b032d8bf2dc5041f36221b','30111c4313d4ef5d8318a173ebc6cfd79cd59e9f383d7c496b0e3bba90522f70');
INSERT INTO "events" VALUES(67,'0842d884a4f9b0d5',67,'tile_drawn',2,'{"ends_turn":true,"rider":1,"seat":2,"source":"rider","tile":"straight"}','2026-11-27T10:58:53.122985Z',2,NULL,'30111c4313d4ef5d8318a173ebc6cfd79cd59e9f383d7c496b0e3bba90522f70','2d87df861f798a00a65ff176d545884ceb159b827879ade0f8b202f0f4ebba71');
INSERT INTO "events" VALUES(68,'0842d884a4f9b0d5',68,'die_rolled',2,'{"end":3,"ends_turn":true,"face":"2","rng_counter":123,"seat":0,"start":1}','2026-11-27T10:58:53.130847Z',0,NULL,'2d87df861f798a00a65ff176d545884ceb159b827879ade0f8b202f0f4ebba71','014f3983ba5979f624703f3c2c0529bccca0faeb55139fa4679b878de657d405');
INSERT INTO "events" VALUES(69,'0842d884a4f9b0d5',69,'die_rolled',2,'{"end":11,"ends_turn":true,"face":"4","rng_counter":124,"seat":1,"start":7}','2026-11-27T10:58:53.155946Z',1,NULL,'014f3983ba5979f624703f3c2c0529bccca0faeb55139fa4679b878de657d405','684e60f61aa847dc5cb335c19ba27867f55121c9b55569dcd25fd4704d842eaa');
INSERT INTO "events" VALUES(70,'0842d884a4f9b0d5',70,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":12,"replaced":null,"rotation":0,"row":4,"stops":[],"tile":"straight"},{"col":12,"replaced":null,"rotation":0,"row":5,"stops":[],"tile":"straight"}],"seat":2}','2026-11-27T10:58:53.202617Z',2,NULL,'684e60f61aa847dc5cb335c19ba27867f55121c9b55569dcd25fd4704d842eaa','53919dd26f40710f74736720ffd022e7c5323d30574105c404343d695a4feec4');
INSERT INTO "events" VALUES(71,'0842d884a4f9b0d5',71,'tile_drawn',2,'{"ends_turn":false,"rider":null,"seat":2,"source":"pile","tile":"tree_straight_two_curves_b"}','2026-11-27T10:58:53.223744Z',2,NULL,'53919dd26f40710f74736720ffd022e7c5323d30574105c404343d695a4feec4','054c40e39ec533dc44be4c592f336668940c9fb844fd47b2d9b8924465662daa');
INSERT INTO "events" VALUES(72,'0842d884a4f9b0d5',72,'tile_drawn',2,'{"ends_turn":true,"rider":null,"seat":2,"source":"pile","tile":"curve"}','2026-11-27T10:58:53.237463Z',2,NULL,'054c40e39ec533dc44be4c592f336668940c9fb844fd47b2d9b8924465662daa','e567498bde26446d163ab83f84bd540d60932947328db858d88e5b04fb10e37c');
INSERT INTO "events" VALUES(73,'0842d884a4f9b0d5',73,'die_rolled',2,'{"end":7,"ends_turn":true,"face":"4","rng_counter":125,"seat":0,"start":3}','2026-11-27T10:58:53.249929Z',0,NULL,'e567498bde26446d163ab83f84bd540d60932947328db858d88e5b04fb10e37c','6fb3cb5f5eb8f26dcd50c33e666cefa60254847e110a7c880585a113eb476da5');
INSERT INTO "events" VALUES(74,'0842d884a4f9b0d5',74,'die_rolled',2,'{"end":14,"ends_turn":true,"face":"3","rng_counter":126,"seat":1,"start":11}','2026-11-27T10:58:53.266405Z',1,NULL,'6fb3cb5f5eb8f26dcd50c33e666cefa60254847e110a7c880585a113eb476da5','734b603e2416945948e8a4c4af0a23b800bff9d40ca9f2ee7b3038fb522481a4');
INSERT INTO "events" VALUES(75,'0842d884a4f9b0d5',75,'tiles_laid',2,'{"ends_turn":false,"placements":[{"col":2,"replaced":null,"rotation":0,"row":1,"stops":[],"tile":"tree_straight_two_curves_b"},{"col":1,"replaced":{"rotation":1,"tile":"straight"},"rotation":0,"row":3,"stops":[],"tile":"tree_wye"}],"seat":2}','2026-11-27T10:58:53.440801Z',2,NULL,'734b603e2416945948e8a4c4af0a23b800bff9d40ca9f2ee7b3038fb522481a4','d99698c5701aefc8d169e34da3e2e0ccb03c461efc1667202570174c30d69a2a');
INSERT INTO "events" VALUES(76,'0842d884a4f9b0d5',76,'tile_drawn',2,'{"ends_turn":true,"rider":null,"seat":2,"source":"pile","tile":"double_curve"}','2026-11-27T10:58:53.460568Z',2,NULL,'d99698c5701aefc8d169e34da3e2e0ccb03c461efc1667202570174c30d69a2a','d796d51e39890d98e84c0430f9a15987c9f830565f00507a52f48c98ff202ac7');
INSERT INTO "events" VALUES(77,'0842d884a4f9b0d5',77,'die_rolled',2,'{"end":10,"ends_turn":true,"face":"3","rng_counter":127,"seat":0,"start":7}','2026-11-27T10:58:53.468996Z',0,NULL,'d796d51e39890d98e84c0430f9a15987c9f830565f00507a52f48c98ff202ac7','530e603c71f5b97077c08a8dc9d536e29493c815182cc9cfaaa5408da30bcc29');
INSERT INTO "events" VALUES(78,'0842d884a4f9b0d5',78,'die_rolled',2,'{"end":15,"ends_turn":true,"face":"1","rng_counter":128,"seat":1,"start":14}','2026-11-27T10:58:53.477363Z',1,NULL,'530e603c71f5b97077c08a8dc9d536e29493c815182cc9cfaaa5408da30bcc29','43724229df8bacd85d5fc8a0298f0c7b62b6bece274bbea8159a69e2929d973b');
INSERT INTO "events" VALUES(79,'0842d884a4f9b0d5',79,'ride_started',1,'{"destination":"Chinatown","line":"2","origin":"Marina Boulevard","route":["C","G","K"],"route_card":"B1","seat":2,"spaces":["Marina Boulevard",[11,1],[11,2],[11,3],[11,4],[11,5],[10,5],[9,5],[9,6],[8,6],[8,7],[8,8],[7,8],[7,9],[7,10],[7,11],[6,11],[5,11],[5,10],[4,10],[4,9],[4,8],[3,8],[2,8],[2,9],[2,10],[3,10],[3,11],[3,12],[4,12],[5,12],[6,12],"Chinatown"]}','2026-11-27T10:58:53.503193Z',2,NULL,'43724229df8bacd85d5fc8a0298f0c7b62b6bece274bbea8159a69e2929d973b','0dc972e2b0bf5bcbcbe3a44b2c500feea13b66a2a083c253592c361c267c0b01');
INSERT INTO "events" VALUES(80,'0842d884a4f9b0d5',80,'die_rolled',2,'{"end":5,"ends_turn":true,"face":"H","rng_counter":129,"seat":2,"start":0}','2026-11-27T10:58:53.532586Z',2,NULL,'0dc972e2b0bf5bcbcbe3a44b2c500feea13b66a2a083c253592c361c267c0b01','e838cd1e678994a140a5c4303e016ddbf2b4437a6a324b1b1310167703766220');
INSERT INTO "events" VALUES(81,'0842d884a4f9b0d5',81,'die_rolled',2,'{"end":13,"ends_turn":true,"face":"3","rng_counter":130,"seat":0,"start":10}','2026-11-27T10:58:53.545688Z',0,NULL,'e838cd1e678994a140a5c4303e016ddbf2b4437a6a324b1b1310167703766220','2eae11e2e31baf2503f37871cdbafee0038acf6939296540e9c9c143cc06fad1');
INSERT INTO "events" VALUES(82,'0842d884a4f9b0d5',82,'die_rolled',2,'{"end":19,"ends_turn":true,"face":"4","rng_counter":131,"seat":1,"start":15}','2026-11-27T10:58:53.559064Z',1,NULL,'2eae11e2e31baf2503f37871cdbafee0038acf6939296540e9c9c143cc06fad1','083096d47d1cbcd360b0ede2f9bc49c7bd5a1a638abb2db2b8360c4287ccf3dd');
INSERT INTO "events" VALUES(83,'0842d884a4f9b0d5',83,'die_rolled',2,'{"end":8,"ends_turn":true,"face":"H","rng_counter":132,"seat":2,"start":5}','2026-11-27T10:58:53.582627Z',2,NULL,'083096d47d1cbcd360b0ede2f9bc49c7bd5a1a638abb2db2b8360c4287ccf3dd','0cbc419c9cd3f893ea3a792900cfdb00fe1e9a66628ea13bb32825e38076138f');
INSERT INTO "events" VALUES(84,'0842d884a4f9b0d5',84,'die_rolled',2,'{"end":15,"ends_turn":true,"face":"H","rng_counter":133,"seat":0,"start":13}','2026-11-27T10:58:53.604520Z',0,NULL,'0cbc419c9cd3f893ea3a792900cfdb00fe1e9a66628ea13bb32825e38076138f','0f798f989456ae7c57c93d149912b369ed97a3c6a83f9d679901758b2e7a81ad');
INSERT INTO "events" VALUES(85,'0842d884a4f9b0d5',85,'die_rolled',2,'{"end":20,"ends_turn":true,"face":"1","rng_counter":134,"seat":1,"start":19}','2026-11-27T10:58:53.620191Z',1,NULL,'0f798f989456ae7c57c93d149912b369ed97a3c6a83f9d679901758b2e7a81ad','794d20581d51480c12fe0d984425911f721d60c9c8981b0dce1bf64b26dfaab1');
INSERT INTO "events" VALUES(86,'0842d884a4f9b0d5',86,'die_rolled',2,'{"end":17,"ends_turn":true,"face":"H","rng_counter":135,"seat":2,"start":8}','2026-11-27T10:58:53.631452Z',2,NULL,'794d20581d51480c12fe0d984425911f721d60c9c8981b0dce1bf64b26dfaab1','864a09e575f821396c6d0e1f1da2c78ca7f3f001ac2912076f519b6dcad91baa');
INSERT INTO "events" VALUES(87,'0842d884a4f9b0d5',87,'die_rolled',2,'{"end":24,"ends_turn":true,"face":"H","rng_counter":136,"seat":0,"start":15}','2026-11-27T10:58:53.646196Z',0,NULL,'864a09e575f821396c6d0e1f1da2c78ca7f3f001ac2912076f519b6dcad91baa','d03a2dc07648b6541beae0c182fdc11d1659fb2c9eb422e3c3ec0ee0e32dd6d0');
INSERT INTO "events" VALUES(88,'0842d884a4f9b0d5',88,'die_rolled',2,'{"end":21,"ends_turn":true,"face":"H","rng_counter":137,"seat":1,"start":20}','2026-11-27T10:58:53.659368Z',1,NULL,'d03a2dc07648b6541beae0c182fdc11d1659fb2c9eb422e3c3ec0ee0e32dd6d0','4027c4a412084aaae23f100fb7569e5935e79056c2404e3cb4f6211aff3971a0');
INSERT INTO "events" VALUES(89,'0842d884a4f9b0d5',89,'die_rolled',2,'{"end":21,"ends_turn":true,"face":"4","rng_counter":138,"seat":2,"start":17}','2026-11-27T10:58:53.676893Z',2,NULL,'4027c4a412084aaae23f100fb7569e5935e79056c2404e3cb4f6211aff3971a0','d33e9bc397b660f7e85a3888801b48757d9dba7e6d27668a7684e898e9c3b6eb');
INSERT INTO "events" VALUES(90,'0842d884a4f9b0d5',90,'die_rolled',2,'{"end":27,"ends_turn":true,"face":"H","rng_counter":139,"seat":0,"start":24}','2026-11-27T10:58:53.686156Z',0,NULL,'d33e9bc397b660f7e85a3888801b48757d9dba7e6d27668a7684e898e9c3b6eb','23278510efabc4f5768bdf4f9963a88896498bfed20c02e1361dee367166332c');
INSERT INTO "events" VALUES(91,'0842d884a4f9b0d5',91,'die_rolled',2,'{"end":24,"ends_turn":true,"face":"3","rng_counter":140,"seat":1,"start":21}','2026-11-27T10:58:53.699386Z',1,NULL,'23278510efabc4f5768bdf4f9963a88896498bfed20c02e1361dee367166332c','02cc90761243d17851411ff007bacd6cca95236a3fd78977920fc355b23554e1');
INSERT INTO "events" VALUES(92,'0842d884a4f9b0d5',92,'die_rolled',2,'{"end":23,"ends_turn":true,"face":"H","rng_counter":141,"seat":2,"start":21}','2026-11-27T10:58:53.714683Z',2,NULL,'02cc90761243d17851411ff007bacd6cca95236a3fd78977920fc355b23554e1','31a1fa0e61cfe141cc7b3b407a7c068e8a71f87080cf4b185f78b71e23018c25');
INSERT INTO "events" VALUES(93,'0842d884a4f9b0d5',93,'die_rolled',2,'{"end":28,"ends_turn":true,"face":"1","rng_counter":142,"seat":0,"start":27}','2026-11-27T10:58:53.738842Z',0,NULL,'31a1fa0e61cfe141cc7b3b407a7c068e8a71f87080cf4b185f78b71e23018c25','697d4ddf79ff0d8f661ec30dd6133d906ecdcd52bac1db838721fcb632c0fc1f');
INSERT INTO "events" VALUES(94,'0842d884a4f9b0d5',94,'die_rolled',2,'{"end":25,"ends_turn":true,"face":"1","rng_counter":143,"seat":1,"start":24}','2026-11-27T10:58:53.764232Z',1,NULL,'697d4ddf79ff0d8f661ec30dd6133d906ecdcd52bac1db838721fcb632c0fc1f','72d6b55fd8bf5ca5534a3394a963b583b622bc74ae19edb74cae14c7f1067b85');
INSERT INTO "events" VALUES(95,'0842d884a4f9b0d5',95,'die_rolled',2,'{"end":32,"ends_turn":false,"face":"H","rng_counter":144,"seat":2,"start":23}','2026-11-27T10:58:53.788607Z',2,NULL,'72d6b55fd8bf5ca5534a3394a963b583b622bc74ae19edb74cae14c7f1067b85','2ffc8e53e54e327025412b07c9303a082b96367d11e47b29af970cc71cdd4dba');
INSERT INTO "events" VALUES(96,'0842d884a4f9b0d5',96,'game_ended',1,'{"reason":"destination_reached","winners":[2]}','2026-11-27T10:58:53.788607Z',2,NULL,'2ffc8e53e54e327025412b07c9303a082b96367d11e47b29af970cc71cdd4dba','24dd58827e5f1b66328771a79956fa9b2751023eae46e0aed82f61929cc5f229');
CREATE TABLE games (
    game_no     INTEGER PRIMARY KEY AUTOINCREMENT,   -- listing order, newest = highest
    game_id     TEXT NOT NULL UNIQUE,
    game_type   TEXT NOT NULL,
    status      TEXT NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    last_hash   TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    metadata    TEXT NOT NULL DEFAULT '{}' CHECK (json_type(metadata) = 'object')
);
INSERT INTO "games" VALUES(1,'0842d884a4f9b0d5','cable-car','finished',96,'24dd58827e5f1b66328771a79956fa9b2751023eae46e0aed82f61929cc5f229','2026-11-27T10:58:51.040910Z','2026-11-27T10:58:53.788607Z','{"board_version":"cable-car/1","caller_seed":"old-record-cc3","host_token_hash":"216ae35166bfe880c55f21e9211d68fd5a8925c9ae411aa76e7a6f0f7298f0b6","open_deal":true,"players":["Ada","Bo","Cy"],"rules_version":"cable-car/3","salt":"2b0d213050a1c13e3e59d5480d23900a","seat_token_hashes":["cefb042da78ea2d0dcd65822e8ede77cd5288a62e8d647184a3ff7620c1c636a","e4474c3ade29b7cadcfa00bb06484283f0e95acaed8bedd81d33889847d10e67","b9cfde4d138687976fa98eeba36e67a92771806c16fc3d3a6bf00c67e36451e5"],"seed":"old-record-cc3","seed_commitment":"0838d61ec95d0e107aece0ba3908c93863e07d4d9438ae119dd2570873ce935b","seed_source":"caller","server_secret":null,"start_seat":0}');
CREATE TABLE idempotency_keys (
    game_id       TEXT NOT NULL REFERENCES games (game_id),
    key           TEXT NOT NULL,
    request_hash  TEXT,
    first_seq     INTEGER NOT NULL,
    last_seq      INTEGER NOT NULL CHECK (last_seq >= first_seq),
    created_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
CREATE TABLE leases (
    name      TEXT PRIMARY KEY,
    owner     TEXT NOT NULL,
    until     TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE organisers (
    organiser_id  TEXT PRIMARY KEY,
    name          TEXT NOT NULL CHECK (name <> ''),
    token_hash    TEXT NOT NULL CHECK (length(token_hash) = 64),   -- sha256 hex of the whole token
    created_at    TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE schema_migrations ( name text PRIMARY KEY, checksum text NOT NULL, applied_at text NOT NULL);
INSERT INTO "schema_migrations" VALUES('0001_init.sql','f6db01297b7a877f1738947ccff272684aacb997f33fdfead5c949ed20a26cae','2026-11-27T10:58:50.805640Z');
INSERT INTO "schema_migrations" VALUES('0002_tournaments.sql','ce91dc7c6ea7fac71d052162081ca188dd16c07302d41deb1e6a61541acb6138','2026-11-27T10:58:50.806652Z');
INSERT INTO "schema_migrations" VALUES('0003_deadlines.sql','492293e1c821f89ad2a6cffafacdbfa5ecaad434e02d09d59787498674f1a780','2026-11-27T10:58:50.806887Z');
INSERT INTO "schema_migrations" VALUES('0004_delivery_occurrence.sql','7a4b3511cf8c3a0f6d44668c6b2761b6db44c1ea056debf5024cc26045437575','2026-11-27T10:58:50.809396Z');
CREATE TABLE webhook_attempts (
    delivery_id   TEXT NOT NULL REFERENCES webhook_deliveries (delivery_id),
    attempt       INTEGER NOT NULL CHECK (attempt >= 1),
    attempted_at  TEXT NOT NULL,
    status_code   INTEGER,
    error         TEXT,
    duration_ms   INTEGER NOT NULL CHECK (duration_ms >= 0),
    PRIMARY KEY (delivery_id, attempt)
) WITHOUT ROWID;
CREATE TABLE "webhook_deliveries" (
    delivery_no       INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id       TEXT NOT NULL UNIQUE,
    webhook_id        TEXT NOT NULL REFERENCES webhooks (webhook_id),
    game_id           TEXT NOT NULL REFERENCES games (game_id),
    event             TEXT NOT NULL CHECK (event <> ''),
    body              TEXT NOT NULL,
    state             TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts          INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at        TEXT NOT NULL,
    next_attempt_at   TEXT,
    delivered_at      TEXT,
    last_status_code  INTEGER,
    last_error        TEXT,
    lease_owner       TEXT,
    lease_until       TEXT,
    occurrence        INTEGER NOT NULL DEFAULT 0 CHECK (occurrence >= 0),
    UNIQUE (webhook_id, game_id, event, occurrence),
    CHECK ((state = 'pending') = (next_attempt_at IS NOT NULL))
);
CREATE TABLE webhooks (
    webhook_no     INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id     TEXT NOT NULL UNIQUE,
    organiser_id   TEXT NOT NULL REFERENCES organisers (organiser_id),
    url            TEXT NOT NULL CHECK (url <> ''),
    batch_id       TEXT REFERENCES batches (batch_id),        -- NULL: every game of the organiser
    events         TEXT NOT NULL CHECK (json_type(events) = 'array' AND json_array_length(events) > 0),
    secret         TEXT NOT NULL CHECK (secret <> ''),        -- signs bodies (HMAC), so not hashed
    from_position  INTEGER NOT NULL CHECK (from_position >= 0),
    active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at     TEXT NOT NULL
);
CREATE INDEX games_status_idx ON games (status, game_no);
CREATE INDEX games_type_idx ON games (game_type, game_no);
CREATE INDEX games_batch_idx ON games (json_extract(metadata, '$.batch'), game_no);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: UPDATE on events is refused');
END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are immutable: DELETE on events is refused');
END;
CREATE INDEX batches_organiser_idx ON batches (organiser_id, batch_no);
CREATE INDEX webhooks_organiser_idx ON webhooks (organiser_id, active, webhook_no);
CREATE INDEX deadlines_due ON deadlines (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, delivery_no);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('webhook_deliveries',0);
INSERT INTO "sqlite_sequence" VALUES('games',1);
COMMIT;