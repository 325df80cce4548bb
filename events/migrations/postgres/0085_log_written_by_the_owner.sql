-- The transparency log's tables are written only by the owner's function
-- (issue 48).  Until now the app role held INSERT on log_leaves, log_nodes
-- and log_checkpoints (0050): one row at the next leaf index made every later
-- publication fail on its primary key, silently, and one junk checkpoint row
-- was served to everyone (or failed every answer).  The app role now holds
-- SELECT only on them (events/migrations/roles.py) and publishes through
-- cablecar_log_publish, run as the owner (SECURITY DEFINER), which
--
--   * takes the next index only: the caller names the tree it extends, and
--     nothing is written unless that is the log's head (log_state, which only
--     this function writes, under a row lock the app role cannot take but by
--     calling it, and waited for 5 s at most: the advisory lock publishers
--     took until now was one any login could hold for ever);
--   * computes the leaves, the nodes and the root itself, from the events
--     table and the games' leaf salts (the caller says only how many events,
--     up to which position: every event after the head's up to there, none
--     that a running transaction may still precede);
--   * stores the note only if its text is the checkpoint of that tree (its
--     origin line, the new size, the root computed here), and stamps the
--     checkpoint with the database's time.  A note's signature cannot be
--     checked here: the server checks it before serving a checkpoint
--     (service/usecases/checkpoint_notes.py), so a note that does not verify,
--     over the true tree, is stored and never served;
--   * moves aside, into log_foreign_rows, every row it finds beyond the head
--     (no publication wrote one: a publication writes its leaves, nodes and
--     checkpoint at once) and says how many it moved, so a row planted before
--     this migration, or by the owner, never stalls the log; it is kept for
--     the operator, not deleted.
--
-- log_state starts at the latest checkpoint that agrees with the stored tree
-- (its last leaf holds its last position, its root is the stored nodes' and
-- its note's text is its checkpoint): a junk row planted before this
-- migration is not taken for the head.

CREATE TABLE log_state (
    one            boolean PRIMARY KEY DEFAULT true CHECK (one),
    tree_size      bigint NOT NULL CHECK (tree_size >= 0),
    last_position  bigint NOT NULL
);

CREATE TABLE log_foreign_rows (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_name  text NOT NULL,
    tree_size   bigint NOT NULL,           -- the log's head when the row was found beyond it
    found_at    timestamptz NOT NULL,
    row_data    jsonb NOT NULL
);

-- The root of the stored tree of p_size leaves (RFC 9162's MTH from the
-- perfect nodes: the largest first, folded from the right); NULL when a node
-- is missing.
CREATE FUNCTION cablecar_log_root(p_size bigint) RETURNS bytea
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
    v_root  bytea;
    v_hash  bytea;
    v_level integer := 0;
BEGIN
    IF p_size IS NULL OR p_size < 1 THEN
        RETURN CASE WHEN p_size = 0 THEN sha256(''::bytea) END;
    END IF;
    WHILE (p_size >> v_level) > 0 LOOP
        IF ((p_size >> v_level) & 1) = 1 THEN
            SELECT hash INTO v_hash FROM log_nodes
                WHERE level = v_level AND node_index = (p_size >> (v_level + 1)) << 1;
            IF NOT FOUND THEN
                RETURN NULL;
            END IF;
            v_root := CASE WHEN v_root IS NULL THEN v_hash ELSE sha256('\x01'::bytea || v_hash || v_root) END;
        END IF;
        v_level := v_level + 1;
    END LOOP;
    RETURN v_root;
END;
$$;

-- Whether p_note's text is the checkpoint body of (its own origin, p_size,
-- p_root), followed by a blank line and a signature line.
CREATE FUNCTION cablecar_log_note_matches(p_note text, p_size bigint, p_root bytea) RETURNS boolean
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, public, pg_temp AS $$
    SELECT p_note IS NOT NULL AND p_root IS NOT NULL AND split_part(p_note, E'\n', 1) <> ''
       AND length(p_note) <= 65536 AND right(p_note, 1) = E'\n'
       AND starts_with(p_note, split_part(p_note, E'\n', 1) || E'\n' || p_size::text || E'\n'
                               || encode(p_root, 'base64') || E'\n\n' || U&'\2014 ');
$$;

INSERT INTO log_state (tree_size, last_position)
    SELECT coalesce(max(c.tree_size), 0), coalesce(max(c.last_position), 0) FROM (
        SELECT c.tree_size, c.last_position FROM log_checkpoints c
            WHERE c.tree_size > 0
              AND EXISTS (SELECT 1 FROM log_leaves l WHERE l.leaf_index = c.tree_size - 1
                                                       AND l.position = c.last_position)
              AND cablecar_log_root(c.tree_size) = c.root_hash
              AND cablecar_log_note_matches(c.note, c.tree_size, c.root_hash)
            ORDER BY c.tree_size DESC LIMIT 1) c;

-- One publication (see the top of this file): the outcome is 'published'
-- (with the new tree's size, root and time, and how many rows no publication
-- wrote were moved aside, per table), 'conflict' (the head is not
-- p_previous_size: another publisher was first; nothing written), 'moved'
-- (events it counted were moved aside by cablecar quarantine since the
-- publisher read them; nothing written) or 'busy' (another transaction holds
-- the head; nothing written).  Anything else the
-- caller claims that the events do not say is an error.
CREATE FUNCTION cablecar_log_publish(
    p_previous_size  bigint,
    p_last_position  bigint,
    p_leaves         bigint,
    p_note           text,
    p_key_id         text,
    OUT r_outcome              text,
    OUT r_tree_size            bigint,
    OUT r_root_hash            bytea,
    OUT r_created_at           timestamptz,
    OUT r_foreign_leaves       bigint,
    OUT r_foreign_nodes        bigint,
    OUT r_foreign_checkpoints  bigint
)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp SET lock_timeout = '5s' AS $$
DECLARE
    -- read before this transaction takes an id of its own (a lower bound of the horizon later)
    v_horizon bigint := pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16;
    v_size    bigint;
    v_last    bigint;
    v_new     bigint;
    v_count   bigint;
    v_salted  bigint;
    v_max     bigint;
    v_level   integer := 0;
    v_lo      bigint;
    v_hi      bigint;
BEGIN
    IF p_leaves IS NULL OR p_leaves < 1 OR p_leaves > 1000000 THEN
        RAISE EXCEPTION 'a publication takes 1 to 1000000 events, not %', p_leaves
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF p_key_id IS NULL OR length(p_key_id) NOT BETWEEN 1 AND 200 THEN
        RAISE EXCEPTION 'a checkpoint names the key that signed it' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- one publisher at a time, waiting for another at most lock_timeout (a publication takes well under a
    -- second): a transaction holding the head longer (a call left uncommitted: the app role may call this
    -- too) makes this one 'busy', not stalled behind it
    BEGIN
        SELECT tree_size, last_position INTO STRICT v_size, v_last FROM log_state FOR UPDATE;
    EXCEPTION WHEN lock_not_available THEN
        r_outcome := 'busy';
        RETURN;
    END;
    IF p_previous_size IS DISTINCT FROM v_size THEN
        r_outcome := 'conflict';
        r_tree_size := v_size;
        RETURN;
    END IF;
    IF p_last_position IS NULL OR p_last_position >= v_horizon THEN
        RAISE EXCEPTION 'event position % may still be preceded by a running transaction', p_last_position
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT count(*), count(g.metadata ->> 'leaf_salt'), max(e.position) INTO v_count, v_salted, v_max
        FROM events e JOIN games g ON g.game_id = e.game_id
        WHERE e.position > v_last AND e.position <= p_last_position;
    IF (v_count <> p_leaves OR v_max IS DISTINCT FROM p_last_position) AND EXISTS (
            SELECT 1 FROM quarantined_events q WHERE q.position > v_last AND q.position <= p_last_position) THEN
        -- events the publisher read were moved aside (cablecar quarantine) since: it reads the log again
        r_outcome := 'moved';
        r_tree_size := v_size;
        RETURN;
    END IF;
    IF v_count <> p_leaves OR v_max IS DISTINCT FROM p_last_position THEN
        RAISE EXCEPTION 'the log holds % events after position % up to %, the last at %, not % ending there',
            v_count, v_last, p_last_position, v_max, p_leaves USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_salted <> v_count THEN
        RAISE EXCEPTION 'a game of these events has no leaf_salt: migrate the database'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    v_new := v_size + p_leaves;

    -- rows no publication wrote, where publications write: moved aside, counted
    WITH moved AS (DELETE FROM log_leaves WHERE leaf_index >= v_size RETURNING *)
    INSERT INTO log_foreign_rows (table_name, tree_size, found_at, row_data)
        SELECT 'log_leaves', v_size, clock_timestamp(), to_jsonb(moved) FROM moved;
    GET DIAGNOSTICS r_foreign_leaves = ROW_COUNT;
    -- (a node covers leaves [index << level, (index + 1) << level): beyond the head once index >= size >> level;
    -- looked for as each level's largest index, one step down the primary key, not a read of the table)
    r_foreign_nodes := 0;
    IF EXISTS (SELECT 1 FROM generate_series(0, 63) AS l(level)
               WHERE (SELECT max(node_index) FROM log_nodes WHERE level = l.level) >= (v_size >> l.level)) THEN
        FOR v_at IN 0..63 LOOP
            WITH moved AS (DELETE FROM log_nodes WHERE level = v_at AND node_index >= (v_size >> v_at) RETURNING *)
            INSERT INTO log_foreign_rows (table_name, tree_size, found_at, row_data)
                SELECT 'log_nodes', v_size, clock_timestamp(), to_jsonb(moved) FROM moved;
            GET DIAGNOSTICS v_count = ROW_COUNT;
            r_foreign_nodes := r_foreign_nodes + v_count;
        END LOOP;
    END IF;
    WITH moved AS (DELETE FROM log_checkpoints WHERE tree_size > v_size RETURNING *)
    INSERT INTO log_foreign_rows (table_name, tree_size, found_at, row_data)
        SELECT 'log_checkpoints', v_size, clock_timestamp(), to_jsonb(moved) FROM moved;
    GET DIAGNOSTICS r_foreign_checkpoints = ROW_COUNT;

    -- the leaves: the events after the head's, in the global log's order; their leaf hashes
    WITH ev AS (
        SELECT v_size - 1 + row_number() OVER (ORDER BY e.position) AS leaf_index, e.game_id, e.seq, e.position,
               sha256('\x00'::bytea || decode(e.hash, 'hex') || decode(g.metadata ->> 'leaf_salt', 'hex')) AS hash
        FROM events e JOIN games g ON g.game_id = e.game_id
        WHERE e.position > v_last AND e.position <= p_last_position
    ), leaves AS (
        INSERT INTO log_leaves (leaf_index, game_id, seq, position)
            SELECT leaf_index, game_id, seq, position FROM ev
    )
    INSERT INTO log_nodes (level, node_index, hash) SELECT 0, leaf_index, hash FROM ev;
    -- the perfect nodes they complete, level by level: each from its two children, read in one range of
    -- the level below (the left halves below the head are stored)
    LOOP
        v_level := v_level + 1;
        v_lo := v_size >> v_level;
        v_hi := (v_new >> v_level) - 1;
        EXIT WHEN v_hi < v_lo;
        INSERT INTO log_nodes (level, node_index, hash)
            SELECT v_level, c.node_index >> 1,
                   sha256('\x01'::bytea || string_agg(c.hash, ''::bytea ORDER BY c.node_index))
            FROM log_nodes c
            WHERE c.level = v_level - 1 AND c.node_index BETWEEN 2 * v_lo AND 2 * v_hi + 1
            GROUP BY c.node_index >> 1
            HAVING count(*) = 2;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        IF v_count <> v_hi - v_lo + 1 THEN
            RAISE EXCEPTION 'the stored tree lacks a node of level % below its % leaves', v_level - 1, v_size
                USING ERRCODE = 'data_corrupted';
        END IF;
    END LOOP;

    r_root_hash := cablecar_log_root(v_new);
    IF NOT cablecar_log_note_matches(p_note, v_new, r_root_hash) THEN
        RAISE EXCEPTION 'the note is not the checkpoint of the tree of % leaves (root %)', v_new,
            encode(r_root_hash, 'base64') USING ERRCODE = 'invalid_parameter_value';
    END IF;
    r_created_at := clock_timestamp();
    INSERT INTO log_checkpoints (tree_size, root_hash, note, key_id, last_position, created_at)
        VALUES (v_new, r_root_hash, p_note, p_key_id, p_last_position, r_created_at);
    UPDATE log_state SET tree_size = v_new, last_position = p_last_position;
    r_outcome := 'published';
    r_tree_size := v_new;
END;
$$;

REVOKE EXECUTE ON FUNCTION
    cablecar_log_root(bigint),
    cablecar_log_note_matches(text, bigint, bytea),
    cablecar_log_publish(bigint, bigint, bigint, text, text)
FROM PUBLIC;
