-- toolguard fleet state, version 2: signed rows, answers their owner takes,
-- audit records with ids.

-- Grants and approvals carry the signature of the fleet key (fleet/seal.go).
-- A row without a valid one counts for nothing: whoever can connect to the
-- database without the key cannot grant, list or answer anything.
ALTER TABLE toolguard_grants ADD COLUMN mac text NOT NULL DEFAULT '';
ALTER TABLE toolguard_approvals ADD COLUMN listed_mac text NOT NULL DEFAULT '';
ALTER TABLE toolguard_approvals ADD COLUMN answer_mac text NOT NULL DEFAULT '';

-- 'answered': a replica other than the owner stored a person's answer; the
-- owner takes it (approved or denied) while its client still waits, or the
-- answering replica withdraws it (abandoned) when the owner does not.
ALTER TABLE toolguard_approvals DROP CONSTRAINT toolguard_approvals_status_check;
ALTER TABLE toolguard_approvals ADD CONSTRAINT toolguard_approvals_status_check
	CHECK (status IN ('pending', 'answered', 'approved', 'denied', 'timeout', 'cancelled', 'shutdown', 'abandoned', 'error'));
DROP INDEX toolguard_approvals_pending;
CREATE INDEX toolguard_approvals_pending ON toolguard_approvals (owner) WHERE status IN ('pending', 'answered');

-- Each record's writer gives it an id, so that a record whose write failed
-- (its commit's reply lost, the database down) is replaced, whenever it
-- committed, by what the caller was actually answered.
ALTER TABLE toolguard_audit ADD COLUMN rid uuid;
CREATE UNIQUE INDEX toolguard_audit_rid ON toolguard_audit (rid);

-- Signed JSON is kept as the bytes that were signed (jsonb would reorder it).
ALTER TABLE toolguard_grants ALTER COLUMN grant_data TYPE text;
ALTER TABLE toolguard_approvals ALTER COLUMN listed TYPE text;
ALTER TABLE toolguard_approvals ALTER COLUMN answer TYPE text;
