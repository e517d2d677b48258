-- toolguard fleet state, version 3: a change of the grants is announced.

-- Every statement that changes toolguard_grants, whoever runs it, notifies
-- toolguard_grants when it commits. A replica remembers for a while that a
-- session has no grant (fleet/grants.go), and forgets it on this
-- notification, so that a new grant applies on every replica at once. The
-- notification carries nothing and is only a hint: a forged one makes a
-- replica read the grants again, nothing more.
CREATE FUNCTION toolguard_grants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('toolguard_grants', '');
	RETURN NULL;
END
$$;

CREATE TRIGGER toolguard_grants_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON toolguard_grants
	FOR EACH STATEMENT EXECUTE FUNCTION toolguard_grants_changed();
