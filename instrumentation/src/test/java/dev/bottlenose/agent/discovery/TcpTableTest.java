package dev.bottlenose.agent.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class TcpTableTest {
  @Test
  void decodesProcNetAddresses() {
    assertThat(IoDiscovery.TcpTable.address("0100007F:1F90")).isEqualTo("127.0.0.1:8080");
    assertThat(IoDiscovery.TcpTable.address("0000000000000000FFFF00000100007F:0050")).isEqualTo("127.0.0.1:80");
    assertThat(IoDiscovery.TcpTable.address("00000000000000000000000001000000:0016")).isEqualTo("[0:0:0:0:0:0:0:1]:22");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void findsThisProcessesConnectedAndListeningSockets() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        Socket accepted = server.accept()) {
      assertThat(Files.isDirectory(Path.of("/proc/net"))).isTrue();
      assertThat(IoDiscovery.TcpTable.byInode().values())
          .contains("127.0.0.1:" + server.getLocalPort(), "listen:127.0.0.1:" + server.getLocalPort(),
              "127.0.0.1:" + client.getLocalPort());
      assertThat(accepted.isConnected()).isTrue();
    }
  }
}
