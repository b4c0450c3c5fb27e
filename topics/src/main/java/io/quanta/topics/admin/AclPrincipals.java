package io.quanta.topics.admin;

import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.utils.SecurityUtils;

/**
 * The Kafka principals of each {@link QuantaRole}, e.g. {@code User:scheduler}, in the {@code Type:name} form of
 * Kafka's ACLs. Immutable; a role may have none.
 */
public final class AclPrincipals {

    private final Map<QuantaRole, List<String>> byRole;

    private AclPrincipals(Map<QuantaRole, List<String>> byRole) {
        this.byRole = byRole;
    }

    /**
     * Validated principals by role (duplicates dropped, order kept).
     *
     * @throws IllegalArgumentException naming a principal that is not {@code Type:name}, or is a wildcard
     */
    public static AclPrincipals of(Map<QuantaRole, ? extends Collection<String>> principals) {
        Map<QuantaRole, List<String>> out = new EnumMap<>(QuantaRole.class);
        for (QuantaRole role : QuantaRole.values()) {
            LinkedHashSet<String> kept = new LinkedHashSet<>();
            Collection<String> given = principals.get(role);
            for (String p : given == null ? List.<String>of() : given) {
                kept.add(validate(role, p.trim()));
            }
            out.put(role, List.copyOf(kept));
        }
        return new AclPrincipals(out);
    }

    private static String validate(QuantaRole role, String principal) {
        KafkaPrincipal parsed;
        try {
            parsed = SecurityUtils.parseKafkaPrincipal(principal);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(role.label() + " principal '" + principal + "' is not Type:name "
                    + "(e.g. User:" + role.label() + ")");
        }
        if (parsed.getName().isBlank() || parsed.getPrincipalType().isBlank()) {
            throw new IllegalArgumentException(role.label() + " principal '" + principal + "' is not Type:name "
                    + "(e.g. User:" + role.label() + ")");
        }
        if ("*".equals(parsed.getName())) {
            throw new IllegalArgumentException(role.label() + " principal '" + principal + "' is a wildcard: it "
                    + "would give the role's rights to everyone");
        }
        return parsed.toString();
    }

    /** The principals of {@code role} (possibly none). */
    public List<String> of(QuantaRole role) {
        return byRole.get(role);
    }

    /** Whether no role has a principal. */
    public boolean isEmpty() {
        return byRole.values().stream().allMatch(List::isEmpty);
    }

    @Override
    public String toString() {
        return byRole.toString();
    }
}
