/**
 * Registration of offheap's MXBeans in the platform {@code MBeanServer}: unique names under the
 * {@code dev.offheap} domain, budgets shown while pools use them. The naming rules are documented in
 * {@link dev.offheap.metrics}.
 */
package dev.offheap.metrics.jmx;
