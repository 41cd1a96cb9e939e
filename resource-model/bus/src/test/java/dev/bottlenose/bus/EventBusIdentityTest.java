package dev.bottlenose.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;

class EventBusIdentityTest {

  @Test
  void everyHolderOfTheSecretDerivesTheSameCertificateAndOthersAnother() throws Exception {
    EventBusIdentity a = EventBusIdentity.derive(ClusterSecret.of("one secret", "test"));
    EventBusIdentity b = EventBusIdentity.derive(ClusterSecret.of("one secret", "elsewhere"));
    EventBusIdentity other = EventBusIdentity.derive(ClusterSecret.of("another secret", "test"));
    assertThat(a.certificate().getEncoded()).isEqualTo(b.certificate().getEncoded());
    assertThat(other.certificate().getEncoded()).isNotEqualTo(a.certificate().getEncoded());
    assertThat(other.certificate().getPublicKey()).isNotEqualTo(a.certificate().getPublicKey());
    assertThat(a.password()).isNotEqualTo(b.password());
  }

  @Test
  void theCertificateIsAValidSelfSignedEd25519OneThatNeverExpires() throws Exception {
    X509Certificate c = EventBusIdentity.derive(ClusterSecret.of("s", "test")).certificate();
    c.verify(c.getPublicKey());
    c.checkValidity();
    assertThat(c.getSigAlgName()).isEqualToIgnoringCase("Ed25519");
    assertThat(c.getSubjectX500Principal()).isEqualTo(c.getIssuerX500Principal());
    assertThat(c.getSubjectX500Principal().getName()).startsWith("CN=Bottlenose cluster bottlenose-");
    assertThat(c.getNotAfter().getTime()).isGreaterThan(System.currentTimeMillis() + 1000L * 3600 * 24 * 365 * 100);
  }

  @Test
  void theStoresHoldTheKeyWithItsCertificateAndTrustOnlyThatCertificate() throws Exception {
    EventBusIdentity id = EventBusIdentity.derive(ClusterSecret.of("s", "test"));
    KeyStore keys = KeyStore.getInstance("JKS");
    keys.load(new ByteArrayInputStream(id.keyStore()), id.password().toCharArray());
    assertThat(keys.size()).isEqualTo(1);
    String alias = keys.aliases().nextElement();
    assertThat(keys.isKeyEntry(alias)).isTrue();
    assertThat(keys.getCertificate(alias)).isEqualTo(id.certificate());
    KeyStore trusted = KeyStore.getInstance("JKS");
    trusted.load(new ByteArrayInputStream(id.trustStore()), id.password().toCharArray());
    assertThat(trusted.size()).isEqualTo(1);
    assertThat(trusted.getCertificate(trusted.aliases().nextElement())).isEqualTo(id.certificate());
  }
}
