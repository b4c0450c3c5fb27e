package io.quanta.topics.admin;

import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.acl.AclBinding;

/**
 * What {@link AclsApply} found or did for one ACL: a binding of the plan that was missing and is now CREATED, one that
 * was there already (OK), or an ALLOW binding found on a Quanta resource that the plan does not have (DRIFT: it gives
 * someone more than the roles allow; never removed by the tool).
 *
 * @param role the role the binding serves; empty for drift
 */
public record AclApplyResult(AclBinding binding, Optional<QuantaRole> role, Outcome outcome) {

    /** CREATED: it was missing and is now created; OK: it exists as planned; DRIFT: it exists and is not planned. */
    public enum Outcome { CREATED, OK, DRIFT }

    public AclApplyResult {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(outcome, "outcome");
    }
}
