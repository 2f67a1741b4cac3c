# Test certificates and the SASL_SSL listeners of a --sasl broker; sourced by
# harness.sh (uses its broker_dir, die, SASL_USER, SASL_PASSWORD and
# TLS_KEY_PASSWORD).
#
# Three SASL_SSL listeners (SCRAM-SHA-512, server certificates only), each with
# its own keystore, so a test can meet each certificate failure on its own:
#   SASLSSL    a good certificate for 127.0.0.1 and localhost, signed by the CA
#   WRONGHOST  signed by the CA, but for another host name only
#   EXPIRED    signed by the CA, for 127.0.0.1 and localhost, expired in 2020
# Their addresses: sasl-ssl-bootstrap, sasl-ssl-wrong-host-bootstrap and
# sasl-ssl-expired-bootstrap in the broker's state directory.

SASL_SSL_VARIANTS=(good wrong-host expired)

# The listener name and state file of each variant.
sasl_ssl_listener() {
    case "$1" in good) echo SASLSSL ;; wrong-host) echo WRONGHOST ;; expired) echo EXPIRED ;; *) return 1 ;; esac
}
sasl_ssl_state_file() {
    case "$1" in good) echo sasl-ssl-bootstrap ;; *) echo "sasl-ssl-$1-bootstrap" ;; esac
}

# A throw-away CA; the broker's certificates (for 127.0.0.1 and localhost, for
# another host, and an expired one) in PKCS12 keystores; a client certificate
# whose key is encrypted with TLS_KEY_PASSWORD; and a second CA that signed
# none of them.
make_tls() {
    make_tls_in "$(broker_dir "$1")/tls" "$(broker_dir "$1")/logs/tls.out" "broker '$1'"
}

# make_tls_in DIR OUTPUT WHO: make_tls's files in DIR (the registry's https
# listener uses broker.pem and broker.key too), openssl's output in OUTPUT.
make_tls_in() {
    local dir="$1" out="$2" who="$3"
    command -v openssl >/dev/null || die "openssl not found (installer/deps.sh installs it)"
    mkdir -p "$dir"
    (
        cd "$dir"
        local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1)
        openssl req -x509 "${ec[@]}" -nodes -keyout ca.key -out ca.pem -days 30 -subj "/CN=MirrorDesk test CA"
        openssl req -x509 "${ec[@]}" -nodes -keyout other-ca.key -out other-ca.pem -days 30 -subj "/CN=Someone else's CA"
        # server_cert NAME SAN [openssl ca dates...]: NAME.pem and NAME.p12
        server_cert() {
            local name="$1" san="$2"
            shift 2
            openssl req "${ec[@]}" -nodes -keyout "$name.key" -out "$name.csr" -subj "/CN=$name"
            printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$san" >"$name.ext"
            if (( $# )); then
                # OpenSSL 3.0's x509 -req cannot date a certificate in the past; ca can.
                mkdir -p ca-db && : >ca-db/index.txt
                printf '[ca]\ndefault_ca=test\n[test]\ndatabase=ca-db/index.txt\nnew_certs_dir=ca-db\nserial=ca-db/serial\ndefault_md=sha256\npolicy=any\n[any]\ncommonName=supplied\n' >ca.cnf
                openssl rand -hex 8 >ca-db/serial
                openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in "$name.csr" -out "$name.pem" \
                    -extfile "$name.ext" -notext "$@"
            else
                openssl x509 -req -in "$name.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$name.pem" -days 30 \
                    -extfile "$name.ext"
            fi
            openssl pkcs12 -export -in "$name.pem" -inkey "$name.key" -certfile ca.pem -name broker \
                -out "$name.p12" -passout "pass:$TLS_KEY_PASSWORD"
        }
        server_cert broker "IP:127.0.0.1,DNS:localhost"
        server_cert broker-wrong-host "DNS:kafka.other-host.invalid"
        server_cert broker-expired "IP:127.0.0.1,DNS:localhost" -startdate 20200101000000Z -enddate 20200201000000Z
        openssl req "${ec[@]}" -nodes -keyout client-plain.key -out client.csr -subj "/CN=mirrordesk-test-client"
        printf 'extendedKeyUsage=clientAuth\n' >client.ext
        openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 30 -extfile client.ext
        openssl pkcs8 -topk8 -v2 aes-256-cbc -in client-plain.key -out client.key -passout "pass:$TLS_KEY_PASSWORD"
        rm -rf client-plain.key ./*.csr ./*.ext ca.cnf ca-db
    ) >"$out" 2>&1 || { cat "$out" >&2; die "making the test certificates of $who failed"; }
}

# server.properties lines of the SASL_SSL listeners (listeners= and the
# protocol map are harness.sh's): each listener's keystore and SCRAM-SHA-512.
sasl_ssl_config() {
    local dir="$1" listener keystore
    for variant in "${SASL_SSL_VARIANTS[@]}"; do
        listener="$(sasl_ssl_listener "$variant" | tr '[:upper:]' '[:lower:]')"
        case "$variant" in good) keystore=broker ;; *) keystore="broker-$variant" ;; esac
        cat <<EOF
listener.name.$listener.ssl.keystore.type=PKCS12
listener.name.$listener.ssl.keystore.location=$dir/tls/$keystore.p12
listener.name.$listener.ssl.keystore.password=$TLS_KEY_PASSWORD
listener.name.$listener.sasl.enabled.mechanisms=SCRAM-SHA-512
listener.name.$listener.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
EOF
    done
}

# Listener entries ("SASLSSL://127.0.0.1:P,...") for the given ports, in variant order.
sasl_ssl_listeners() {
    local out=() i=0 port
    for port in "$@"; do
        out+=("$(sasl_ssl_listener "${SASL_SSL_VARIANTS[$i]}")://127.0.0.1:$port")
        i=$((i + 1))
    done
    (IFS=,; echo "${out[*]}")
}

sasl_ssl_protocol_map() {
    local out=() variant
    for variant in "${SASL_SSL_VARIANTS[@]}"; do out+=("$(sasl_ssl_listener "$variant"):SASL_SSL"); done
    (IFS=,; echo "${out[*]}")
}

# Writes each listener's bootstrap file once the broker is ready.
write_sasl_ssl_bootstraps() {
    local dir="$1"
    shift
    local i=0 port
    for port in "$@"; do
        echo "127.0.0.1:$port" >"$dir/$(sasl_ssl_state_file "${SASL_SSL_VARIANTS[$i]}")"
        i=$((i + 1))
    done
}

remove_sasl_ssl_bootstraps() {
    local variant
    for variant in "${SASL_SSL_VARIANTS[@]}"; do rm -f "$1/$(sasl_ssl_state_file "$variant")"; done
}

# sasl-ssl-bootstrap NAME [good|wrong-host|expired]
cmd_sasl_ssl_bootstrap() {
    local name="${1:-}" variant="${2:-good}"
    sasl_ssl_listener "$variant" >/dev/null || die "unknown SASL_SSL listener '$variant' (good, wrong-host or expired)"
    print_state_file sasl-ssl-bootstrap "$name" "$(sasl_ssl_state_file "$variant")" \
        "no SASL_SSL listener '$variant' (not a --sasl broker, or not started in $STATE)"
}
