// Command bigresp is the server side of scripts/bench-bigresp.sh: a
// loopback HTTPS server, in its own process (so that its memory is not in
// the figure), answering every request with SIZE bytes of text.
//
//	go run ./scripts/bigresp -cert FILE [-size BYTES]
//
// It makes a self-signed certificate for 127.0.0.1, writes it (PEM) to
// FILE for the client's SSL_CERT_FILE, prints its address (127.0.0.1:PORT)
// on stdout and serves until it is killed.
package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	certFile := flag.String("cert", "", "where to write the certificate (PEM)")
	size := flag.Int("size", 16<<20, "bytes in every response body")
	flag.Parse()
	if *certFile == "" {
		fmt.Fprintln(os.Stderr, "usage: bigresp -cert FILE [-size BYTES]")
		os.Exit(2)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	check(err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "bigresp"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	check(err)
	check(os.WriteFile(*certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	body := bytes.Repeat([]byte("b"), *size)
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write(body)
		}),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}},
	}
	fmt.Println(ln.Addr().String())
	check(srv.ServeTLS(ln, "", ""))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bigresp:", err)
		os.Exit(1)
	}
}
