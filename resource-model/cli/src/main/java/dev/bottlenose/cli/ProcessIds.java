package dev.bottlenose.cli;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli's converter for {@code --pid}: a positive whole number. */
public final class ProcessIds implements ITypeConverter<Long> {
  @Override
  public Long convert(String value) {
    long pid;
    try {
      pid = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      pid = 0;
    }
    if (pid <= 0) {
      throw new TypeConversionException("'" + value + "' is not a process id (a positive whole number)");
    }
    return pid;
  }
}
