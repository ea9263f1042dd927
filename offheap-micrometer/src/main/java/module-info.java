/**
 * Binds offheap's pools and budgets to Micrometer: one {@code MeterBinder} each, with gauges for the
 * figures JMX shows. Optional: nothing in offheap needs it.
 */
module dev.offheap.micrometer {
    requires transitive dev.offheap.core;
    requires transitive micrometer.core;

    exports dev.offheap.micrometer;
}
