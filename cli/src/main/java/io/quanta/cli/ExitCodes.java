package io.quanta.cli;

/**
 * Exit codes of every {@code quanta} command, one meaning each, so scripts can tell what happened:
 * <ul>
 *   <li>0 {@link #OK}: done (a submitted job was accepted; a watched job FINISHED)</li>
 *   <li>1 {@link #FAILURE}: the job ended otherwise (FAILED, CANCELLED, REJECTED while watched) or did not end in
 *       time</li>
 *   <li>2 {@link #USAGE}: bad usage, configuration or input; nothing was done</li>
 *   <li>3 {@link #DRIFT}: {@code topics apply} found a topic or schema that differs, {@code acls apply} an ACL that
 *       grants more than the roles</li>
 *   <li>4 {@link #REFUSED}: the scheduler refused the request (a submission REJECTED, a job id already in use, a
 *       job that already ended, a cancel of another tenant's job)</li>
 *   <li>5 {@link #NOT_FOUND}: no such job</li>
 *   <li>69 {@link #UNAVAILABLE}: the cluster (Kafka, the schema registry) or the scheduler did not answer (sysexits'
 *       EX_UNAVAILABLE)</li>
 *   <li>77 {@link #FORBIDDEN}: the cluster refused the credentials, or the principal may not do this (its ACLs;
 *       sysexits' EX_NOPERM)</li>
 *   <li>130 {@link #INTERRUPTED}: Ctrl-C</li>
 * </ul>
 */
public final class ExitCodes {

    public static final int OK = 0;
    public static final int FAILURE = 1;
    public static final int USAGE = 2;
    public static final int DRIFT = 3;
    public static final int REFUSED = 4;
    public static final int NOT_FOUND = 5;
    public static final int UNAVAILABLE = 69;
    public static final int FORBIDDEN = 77;
    public static final int INTERRUPTED = 130;

    private ExitCodes() {
    }
}
