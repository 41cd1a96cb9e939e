package dev.bottlenose.daemon.attach;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import dev.bottlenose.daemon.it.TargetJvm;
import org.junit.jupiter.api.Test;

/** Diagnostic commands over the Attach API against a real JVM: their whole output, however long. */
class JCmdIT {
  @Test
  void aLongOutputComesBackWhole() throws Exception {
    try (TargetJvm target = TargetJvm.start()) {
      VirtualMachine vm = VirtualMachine.attach(Long.toString(target.pid()));
      try {
        // every flag of the VM, in name order: hundreds of lines, far more than one read of the stream
        String flags = JCmd.run(vm, "VM.flags -all");
        assertThat(flags.length()).isGreaterThan(16_384);
        assertThat(flags).contains("ActiveProcessorCount", "UseSerialGC");
        assertThat(flags.strip().lines().reduce((a, b) -> b).orElseThrow())
            .as("the last line whole: the output ends where the VM ended it").endsWith("}");
        assertThat(CompiledBeforeAttach.parse(JCmd.run(vm, "Compiler.codelist")).methods()).isPositive();
      } finally {
        vm.detach();
      }
    }
  }
}
