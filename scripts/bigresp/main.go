// Command bigresp is the server side of scripts/bench-bigresp.sh: a
// loopback HTTPS server, in its own process (so that its memory is not in
// the figure), answering every request with SIZE bytes of text.
//
//	go run ./scripts/bigresp -cert FILE [-size BYTES]
//
// Its certificate (net/http/httptest's, valid for 127.0.0.1) is written
// (PEM) to FILE for the client's SSL_CERT_FILE; it prints its address
// (127.0.0.1:PORT) on stdout and serves until it is killed.
package main

import (
	"bytes"
	"encoding/pem"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
)

func main() {
	certFile := flag.String("cert", "", "where to write the certificate (PEM)")
	size := flag.Int("size", 16<<20, "bytes in every response body")
	flag.Parse()
	if *certFile == "" {
		fmt.Fprintln(os.Stderr, "usage: bigresp -cert FILE [-size BYTES]")
		os.Exit(2)
	}
	body := bytes.Repeat([]byte("b"), *size)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	}))
	srv.StartTLS()
	cert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(*certFile, cert, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bigresp:", err)
		os.Exit(1)
	}
	fmt.Println(srv.Listener.Addr().String())
	select {}
}
