package io.quanta.streams.router;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Tenant identity from the broker's authentication ({@code scheduler.tenant.topics}). Kafka records do not carry their
 * producer's principal, so each tenant writes its submissions and cancellations to a topic of its own,
 * {@code <submissions topic>.<tenant>}, that only its principal may write (a literal WRITE ACL, see
 * {@code quanta acls}): the topic a record arrives on says who sent it, whatever its fields claim. The router takes
 * the tenant from the topic name, refuses a submission whose tenant field names another tenant, stamps cancellations
 * with the tenant that asked (the cell refuses the cancel of another tenant's job), and refuses anything on the shared
 * submissions topic, which anyone allowed to write it could forge. A signed-record scheme would need key distribution
 * to every submitter; per-tenant topics need only the broker's users and ACLs.
 *
 * @param sharedTopic the shared submissions topic (not accepted while tenant topics are on)
 */
public record TenantTopics(String sharedTopic) {

    /** Tenant names usable in a topic name. */
    public static final Pattern TENANT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The pattern of every tenant's submissions topic. */
    public Pattern topics() {
        return Pattern.compile(Pattern.quote(sharedTopic) + "\\." + TENANT.pattern());
    }

    /** The submissions topic of {@code tenant}. */
    public String topicOf(String tenant) {
        if (!TENANT.matcher(tenant).matches()) {
            throw new IllegalArgumentException("tenant '" + tenant + "' is not 1 to 64 letters, digits, '_' or '-'");
        }
        return sharedTopic + "." + tenant;
    }

    /** The tenant whose topic {@code topic} is, or empty (the shared topic or another one). */
    public Optional<String> tenantOf(String topic) {
        if (topic == null || !topic.startsWith(sharedTopic + ".")) {
            return Optional.empty();
        }
        String tenant = topic.substring(sharedTopic.length() + 1);
        return TENANT.matcher(tenant).matches() ? Optional.of(tenant) : Optional.empty();
    }
}
