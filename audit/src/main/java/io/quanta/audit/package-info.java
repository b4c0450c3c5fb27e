/**
 * Audit of the cell scheduler from its log: {@code quanta audit replay} re-runs the production cell-scheduler
 * processor over a cell's recorded inbox and compares every decision with the recorded one; {@code explain} builds a
 * job's timeline with reasons and attained service; {@code export} writes a self-contained Avro file of a cell's log;
 * {@code export-trace} derives a workload trace for what-if simulations. {@link io.quanta.audit.AuditCommands} is
 * the entry point for the command line.
 */
package io.quanta.audit;
