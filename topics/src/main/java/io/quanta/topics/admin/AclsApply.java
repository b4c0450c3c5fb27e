package io.quanta.topics.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;

/**
 * Makes the cluster's ACLs hold an {@link AclPlan} with Kafka's Admin API: creates the planned bindings that are
 * missing, and reports as {@link AclApplyResult.Outcome#DRIFT} every other ALLOW binding that covers a Quanta resource
 * (a literal, prefixed or wildcard pattern matching a planned topic, group or transactional id): it grants someone
 * more than the roles do. Never deletes an ACL. Idempotent: a second run reports OK for everything it created. Returns
 * once the broker's authorizer lists every planned binding, so what it reports is what the broker enforces.
 */
public final class AclsApply {

    private final Admin admin;
    private final Duration timeout;

    public AclsApply(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * One result per planned binding (in plan order), then one per drifting binding.
     *
     * @throws KafkaException naming the cause: the cluster has no authorizer, this principal may not describe or
     *     create ACLs (it needs DESCRIBE and ALTER on the cluster: a super user), or the cluster does not answer
     */
    public List<AclApplyResult> apply(AclPlan plan) {
        Set<AclBinding> existing = new HashSet<>(describeAll());
        List<AclBinding> missing = plan.bindings().stream().filter(b -> !existing.contains(b)).toList();
        if (!missing.isEmpty()) {
            await(admin.createAcls(missing).all(), "create " + missing.size() + " ACLs");
            awaitListed(missing);
        }
        List<AclApplyResult> results = new ArrayList<>();
        Set<AclBinding> created = new HashSet<>(missing);
        for (AclPlan.Entry e : plan.entries()) {
            results.add(new AclApplyResult(e.binding(), Optional.of(e.role()), created.contains(e.binding())
                    ? AclApplyResult.Outcome.CREATED : AclApplyResult.Outcome.OK));
        }
        for (AclBinding extra : drift(plan, existing)) {
            results.add(new AclApplyResult(extra, Optional.empty(), AclApplyResult.Outcome.DRIFT));
        }
        return results;
    }

    /** The ALLOW bindings of {@code existing} that cover a resource of the plan and are not in it. */
    public static List<AclBinding> drift(AclPlan plan, Collection<AclBinding> existing) {
        Set<AclBinding> planned = plan.bindings();
        Set<ResourcePattern> resources = plan.resources();
        return existing.stream()
                .filter(b -> b.entry().permissionType() == AclPermissionType.ALLOW && !planned.contains(b))
                .filter(b -> resources.stream().anyMatch(r -> overlaps(b.pattern(), r)))
                .sorted(java.util.Comparator.comparing(AclBinding::toString))
                .toList();
    }

    /**
     * Whether a binding on {@code found} applies to some resource that {@code planned} names: the literal wildcard
     * {@code *}; a literal name equal to the planned one (or, for a planned prefix, starting with it); a prefix of
     * the planned name (or, for a planned prefix, one that starts with it).
     */
    static boolean overlaps(ResourcePattern found, ResourcePattern planned) {
        if (found.resourceType() != planned.resourceType()) {
            return false;
        }
        String name = found.name();
        boolean plannedPrefix = planned.patternType() == PatternType.PREFIXED;
        return switch (found.patternType()) {
            case LITERAL -> ResourcePattern.WILDCARD_RESOURCE.equals(name)
                    || (plannedPrefix ? name.startsWith(planned.name()) : name.equals(planned.name()));
            case PREFIXED -> planned.name().startsWith(name) || (plannedPrefix && name.startsWith(planned.name()));
            default -> false;
        };
    }

    private Collection<AclBinding> describeAll() {
        return await(admin.describeAcls(AclBindingFilter.ANY).values(), "describe ACLs");
    }

    /** ACLs are created by the controller and reach the broker's authorizer a moment later. */
    private void awaitListed(List<AclBinding> created) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!new HashSet<>(describeAll()).containsAll(created)) {
            if (System.nanoTime() > deadline) {
                throw new KafkaException("ACLs created but not listed by the broker after " + timeout);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // metadata propagation, bounded
        }
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SecurityDisabledException) {
                throw new KafkaException("Cannot " + what + ": the cluster has no authorizer (set "
                        + "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer on every "
                        + "broker and controller)", cause);
            }
            if (cause instanceof ClusterAuthorizationException) {
                throw new KafkaException("Cannot " + what + ": this principal may not manage ACLs (it needs DESCRIBE "
                        + "and ALTER on the cluster; use a super user, e.g. quanta local's client-admin.properties)",
                        cause);
            }
            throw new KafkaException("Cannot " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted: " + what, e);
        } catch (TimeoutException e) {
            throw new KafkaException("Timed out after " + timeout + ": " + what, e);
        }
    }
}
