package dev.offheap.lab.experiment.server;

import java.util.Arrays;

/**
 * The median, smallest and largest of one figure over the rounds (NaN when no round has it).
 *
 * @param median the middle value, or the mean of the middle two
 * @param min    the smallest
 * @param max    the largest
 * @param count  how many rounds have the figure
 */
public record Range(double median, double min, double max, int count) {
    /** The range of {@code values}, NaNs left out; the median of an even count is the mean of the middle two. */
    public static Range of(double... values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return new Range(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Range(median, v[0], v[v.length - 1], v.length);
    }
}
