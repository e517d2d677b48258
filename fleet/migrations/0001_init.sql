-- toolguard fleet state, version 1.

CREATE TABLE toolguard_replicas (
	id          text PRIMARY KEY,
	host        text NOT NULL DEFAULT '',
	pid         integer NOT NULL DEFAULT 0,
	policy_hash text NOT NULL DEFAULT '',
	subscribers integer NOT NULL DEFAULT 0,
	started_at  timestamptz NOT NULL DEFAULT now(),
	seen_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE toolguard_approvals (
	id          text PRIMARY KEY,
	owner       text NOT NULL,
	status      text NOT NULL DEFAULT 'pending'
		CHECK (status IN ('pending', 'approved', 'denied', 'timeout', 'cancelled', 'shutdown', 'abandoned', 'error')),
	listed      jsonb NOT NULL,
	created_at  timestamptz NOT NULL DEFAULT now(),
	expires_at  timestamptz NOT NULL,
	lease_until timestamptz NOT NULL,
	answer      jsonb,
	answered_on text,
	resolved_at timestamptz
);
CREATE INDEX toolguard_approvals_pending ON toolguard_approvals (owner) WHERE status = 'pending';
CREATE INDEX toolguard_approvals_resolved ON toolguard_approvals (resolved_at);

CREATE TABLE toolguard_grants (
	id         bigserial PRIMARY KEY,
	scope      text NOT NULL CHECK (scope IN ('session', 'always')),
	session    text NOT NULL DEFAULT '',
	pattern    text NOT NULL,
	digest     text NOT NULL DEFAULT '',
	grant_data jsonb NOT NULL,
	granted_by text NOT NULL DEFAULT '',
	replica    text NOT NULL DEFAULT '',
	created_at timestamptz NOT NULL DEFAULT now(),
	UNIQUE (scope, session, pattern, digest)
);

CREATE TABLE toolguard_budget_actions (
	sender text NOT NULL,
	at     timestamptz NOT NULL
);
CREATE INDEX toolguard_budget_actions_sender ON toolguard_budget_actions (sender, at);

CREATE TABLE toolguard_budget_cost (
	sender text NOT NULL,
	day    date NOT NULL,
	cents  bigint NOT NULL DEFAULT 0,
	PRIMARY KEY (sender, day)
);

CREATE TABLE toolguard_subagents (
	session text PRIMARY KEY,
	started integer NOT NULL
);

CREATE TABLE toolguard_audit (
	seq     bigserial PRIMARY KEY,
	time    timestamptz NOT NULL,
	replica text NOT NULL DEFAULT '',
	policy  text NOT NULL DEFAULT '',
	agent   text NOT NULL DEFAULT '',
	session text NOT NULL DEFAULT '',
	tool    text NOT NULL DEFAULT '',
	verdict text NOT NULL DEFAULT '',
	rule    text NOT NULL DEFAULT '',
	record  jsonb NOT NULL
);
CREATE INDEX toolguard_audit_time ON toolguard_audit (time);

-- toolguard_reserve counts one action of a sender against its hourly
-- budget, exactly under concurrency (one advisory lock per sender), unless
-- the hourly actions or the day's cost are used up. p_max = 0 means no
-- action limit, p_max_cost = 0 no cost limit.
CREATE FUNCTION toolguard_reserve(p_sender text, p_now timestamptz, p_max integer, p_max_cost bigint)
RETURNS TABLE (ok boolean, used integer, cost bigint, oldest timestamptz, reset_at timestamptz)
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(hashtextextended('toolguard.budget:' || p_sender, 0));
	DELETE FROM toolguard_budget_actions a WHERE a.sender = p_sender AND a.at <= p_now - interval '1 hour';
	SELECT count(*) INTO used FROM toolguard_budget_actions a WHERE a.sender = p_sender;
	SELECT coalesce(max(c.cents), 0) INTO cost FROM toolguard_budget_cost c
		WHERE c.sender = p_sender AND c.day = (p_now AT TIME ZONE 'UTC')::date;
	ok := NOT ((p_max_cost > 0 AND cost >= p_max_cost) OR (p_max > 0 AND used >= p_max));
	IF ok AND p_max > 0 THEN
		INSERT INTO toolguard_budget_actions (sender, at) VALUES (p_sender, p_now);
		used := used + 1;
	END IF;
	SELECT min(a.at) INTO oldest FROM toolguard_budget_actions a WHERE a.sender = p_sender;
	reset_at := NULL;
	IF NOT ok AND p_max > 0 AND used >= p_max THEN
		SELECT a.at + interval '1 hour' INTO reset_at FROM toolguard_budget_actions a
			WHERE a.sender = p_sender ORDER BY a.at DESC OFFSET p_max - 1 LIMIT 1;
	END IF;
	RETURN NEXT;
END
$$;
