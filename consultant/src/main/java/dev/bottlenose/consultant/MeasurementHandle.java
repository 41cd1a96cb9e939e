package dev.bottlenose.consultant;

/** One running measurement, as handed out by a {@link MeasurementPort}. */
public record MeasurementHandle(long id, MetricRequest request) {}
