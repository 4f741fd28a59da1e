package castlegraph;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.PortBindException;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.configuration.ssl.ClientAuth;
import org.neo4j.configuration.ssl.SslPolicyConfig;
import org.neo4j.configuration.ssl.SslPolicyScope;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilder;
import org.neo4j.harness.Neo4jBuilders;

/**
 * A throw-away Neo4j Community server for development and tests.
 *
 * <p>Starts an in-process Neo4j (test harness) with Bolt on 127.0.0.1, HTTP off, auth off and its
 * data in a fresh temporary directory. Prints exactly one line to stdout once Bolt answers:
 *
 * <pre>neo4j ready bolt://127.0.0.1:PORT</pre>
 *
 * <p>Runs until SIGTERM / SIGINT, or until standard input reaches end-of-file (so a parent process
 * that dies also takes the server down). Either way the database is shut down and the temporary
 * directory removed. (After a SIGKILL the directory stays; the next start removes it.)
 *
 * <p>Options: {@code --port N} (0 or absent: a free port), {@code --ignore-stdin} (do not stop on
 * stdin EOF; for running it in the background from a shell), {@code --verbose} (lifecycle messages
 * on stderr), {@code --password P} (auth on: the {@code neo4j} user's password, 8 characters or
 * more), {@code --tls} (Bolt accepts TLS connections only, with a self-signed certificate made at
 * start; the ready line then reads {@code neo4j ready bolt+s://127.0.0.1:PORT certificate=PATH},
 * PATH the certificate in PEM, for a client to trust), {@code --data-dir DIR} (keep the databases
 * in DIR, created if missing, and leave it there on exit: a later start with the same DIR is a
 * restart with the same data). Neo4j's own logs go to files in the data directory and are copied
 * to stderr only when the start fails.
 */
public final class Neo4jServer {

    private static final String PREFIX = "neo4j-server: ";
    private static final String DIR_PREFIX = "castlegraph-neo4j-";
    private static final String OWNER_FILE = "owner.pid";
    private static final int LOG_TAIL_LINES = 25;
    private static final String USAGE =
            "usage: neo4j-server [--port N] [--password P] [--tls] [--data-dir DIR] [--ignore-stdin]"
            + " [--verbose]";
    private static final int MINIMUM_PASSWORD_LENGTH = 8; // Neo4j's own default minimum
    private static final String CERTIFICATE_ALIAS = "neo4j-server";

    private final Object lock = new Object();
    private Neo4j neo4j;          // guarded by lock
    private boolean building;     // guarded by lock
    private boolean stopped;      // guarded by lock
    private Path workDir;         // guarded by lock
    private Path dataDir;         // null: the databases live in workDir and go with it
    private boolean verbose;
    private String password;      // null: auth off
    private boolean tls;
    private Path certificate;     // with tls: the public certificate (PEM) a client may trust

    public static void main(String[] args) {
        System.exit(new Neo4jServer().run(args));
    }

    private int run(String[] args) {
        int port = 0;
        boolean watchStdin = true;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            try {
                if (a.equals("--port") && i + 1 < args.length) {
                    port = Integer.parseInt(args[++i]);
                } else if (a.startsWith("--port=")) {
                    port = Integer.parseInt(a.substring("--port=".length()));
                } else if (a.equals("--data-dir") && i + 1 < args.length) {
                    dataDir = Path.of(args[++i]).toAbsolutePath();
                } else if (a.equals("--ignore-stdin")) {
                    watchStdin = false;
                } else if (a.equals("--verbose") || a.equals("-v")) {
                    verbose = true;
                } else if (a.equals("--password") && i + 1 < args.length) {
                    password = args[++i];
                } else if (a.startsWith("--password=")) {
                    password = a.substring("--password=".length());
                } else if (a.equals("--tls")) {
                    tls = true;
                } else if (a.equals("--help") || a.equals("-h")) {
                    System.err.println(USAGE);
                    return 0;
                } else {
                    System.err.println(PREFIX + "unknown argument: " + a);
                    System.err.println(USAGE);
                    return 2;
                }
            } catch (NumberFormatException e) {
                System.err.println(PREFIX + "invalid port: " + args[i]);
                return 2;
            }
        }
        if (port < 0 || port > 65535) {
            System.err.println(PREFIX + "invalid port: " + port);
            return 2;
        }
        if (password != null && password.length() < MINIMUM_PASSWORD_LENGTH) {
            System.err.println(PREFIX + "the password needs " + MINIMUM_PASSWORD_LENGTH
                    + " characters or more (Neo4j's minimum)");
            return 2;
        }

        // Registered before anything is started so that a signal at any moment cleans up.
        Thread hook = new Thread(this::stop, "neo4j-server-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        if (watchStdin) {
            // Started before Neo4j, so that a parent that goes away during the start is noticed.
            Thread watcher = new Thread(Neo4jServer::awaitStdinEof, "neo4j-server-stdin");
            watcher.setDaemon(true);
            watcher.start();
        }

        long t0 = System.nanoTime();
        int boltPort;
        try {
            boltPort = start(port);
        } catch (Throwable e) {
            System.err.println(PREFIX + "failed to start Neo4j: " + e);
            for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
                System.err.println(PREFIX + "  caused by: " + c);
            }
            dumpLogs(System.err);
            return 1; // the shutdown hook removes the temporary directory
        }
        synchronized (lock) {
            if (boltPort < 0 || stopped) {
                return 0; // stop requested while starting; the shutdown hook cleans up
            }
        }

        if (verbose) {
            System.err.printf("%sstarted in %d ms, data in %s%n", PREFIX,
                    Duration.ofNanos(System.nanoTime() - t0).toMillis(), workDir);
        }
        System.out.println(tls
                ? "neo4j ready bolt+s://127.0.0.1:" + boltPort + " certificate=" + certificate
                : "neo4j ready bolt://127.0.0.1:" + boltPort);
        System.out.flush();

        try {
            new CountDownLatch(1).await(); // until System.exit / signal
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    /** Starts Neo4j; returns the Bolt port, or -1 if a stop request came first. */
    private int start(int requestedPort) throws IOException {
        synchronized (lock) {
            if (stopped) {
                return -1;
            }
            workDir = Files.createTempDirectory(DIR_PREFIX);
            Files.writeString(workDir.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
            building = true;
        }
        removeStaleDirectories(workDir.getParent());
        Neo4j started = null;
        try {
            if (tls) {
                certificate = makeCertificate(workDir.resolve("certificates").resolve("bolt"));
            }
            for (int attempt = 1; ; attempt++) {
                // Choose the port here (rather than binding port 0 in Neo4j) so that the advertised
                // address, which ends up in routing tables for neo4j:// URIs, is the real one.
                int port = requestedPort != 0 ? requestedPort : freePort();
                try {
                    started = build(port);
                    break;
                } catch (RuntimeException e) {
                    // Another process may grab a free port between our check and Neo4j's bind.
                    if (requestedPort != 0 || attempt >= 3 || !isPortBindFailure(e)) {
                        throw e;
                    }
                    if (verbose) {
                        System.err.println(PREFIX + "port " + port + " was taken meanwhile; retrying");
                    }
                }
            }
            if (password != null) {
                setPassword(started, password);
            }
            int boltPort = started.boltURI().getPort();
            awaitBolt(boltPort, Duration.ofSeconds(30));
            return boltPort;
        } finally {
            synchronized (lock) {
                neo4j = started;
                building = false;
                lock.notifyAll();
            }
        }
    }

    private Neo4j build(int port) throws IOException {
        SocketAddress address = new SocketAddress("127.0.0.1", port);
        Neo4jBuilder builder = Neo4jBuilders.newInProcessBuilder(workDir);
        if (dataDir != null) {
            // Outside the harness's own folder, which it deletes on close: the data stays.
            Files.createDirectories(dataDir);
            builder = builder.withConfig(GraphDatabaseSettings.data_directory, dataDir);
        }
        builder = builder
                .withDisabledServer() // no HTTP / HTTPS
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, address)
                .withConfig(BoltConnector.advertised_address, address)
                .withConfig(GraphDatabaseSettings.auth_enabled, password != null)
                // Tests try wrong passwords on purpose: no lock-out of the user after a few.
                .withConfig(GraphDatabaseSettings.auth_max_failed_attempts, 0);
        if (tls) {
            SslPolicyConfig bolt = SslPolicyConfig.forScope(SslPolicyScope.BOLT);
            builder = builder
                    .withConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.REQUIRED)
                    .withConfig(bolt.enabled, true)
                    .withConfig(bolt.base_directory, certificate.getParent())
                    .withConfig(bolt.private_key, certificate.resolveSibling("private.key"))
                    .withConfig(bolt.public_certificate, certificate)
                    .withConfig(bolt.client_auth, ClientAuth.NONE);
        }
        return builder
                .withConfig(GraphDatabaseSettings.udc_enabled, false) // no usage report
                .withConfig(GraphDatabaseSettings.pagecache_memory, 256L * 1024 * 1024)
                // Small, non-preallocated transaction logs: faster start, less disk.
                .withConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .withConfig(GraphDatabaseSettings.preallocate_store_files, false)
                .withConfig(GraphDatabaseSettings.logical_log_rotation_threshold, 32L * 1024 * 1024)
                .withConfig(GraphDatabaseSettings.keep_logical_logs, "keep_none")
                // Netty's graceful shutdown otherwise waits a 5 s quiet period per event loop
                // group (about 10 s per stop). Nothing needs a graceful Bolt goodbye here.
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
                .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(5))
                .build();
    }

    /** Auth on: the initial {@code neo4j} user gets the password, with no change required. */
    private static void setPassword(Neo4j started, String password) {
        started.databaseManagementService()
                .database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME)
                .executeTransactionally("ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                        Map.of("password", password));
    }

    /**
     * A throw-away self-signed certificate for Bolt, valid for 127.0.0.1 and localhost: the JDK's
     * keytool makes the key pair and certificate (no extra install), and its PKCS#12 store is
     * written out as the PEM files Neo4j's SSL policy reads. Returns the certificate's path.
     */
    private static Path makeCertificate(Path dir) throws IOException {
        Files.createDirectories(dir.resolve("trusted"));
        Files.createDirectories(dir.resolve("revoked"));
        Path store = dir.resolve("keystore.p12");
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        char[] storePassword = HexFormat.of().formatHex(random).toCharArray();
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new ArrayList<>(List.of(
                Files.isExecutable(keytool) ? keytool.toString() : "keytool",
                "-genkeypair", "-noprompt", "-alias", CERTIFICATE_ALIAS,
                "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg", "SHA256withECDSA",
                "-validity", "7", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-ext", "KU=digitalSignature,keyAgreement", "-ext", "EKU=serverAuth",
                "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", new String(storePassword)));
        Process keytoolRun = new ProcessBuilder(command).redirectErrorStream(true).start();
        keytoolRun.getOutputStream().close();
        String output = new String(keytoolRun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!keytoolRun.waitFor(60, TimeUnit.SECONDS) || keytoolRun.exitValue() != 0) {
                throw new IOException("keytool could not make a certificate: " + output.strip());
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, storePassword);
            }
            PrivateKey key = (PrivateKey) keys.getKey(CERTIFICATE_ALIAS, storePassword);
            Certificate cert = keys.getCertificate(CERTIFICATE_ALIAS);
            Files.writeString(dir.resolve("private.key"), pem("PRIVATE KEY", key.getEncoded()));
            Path certificate = dir.resolve("public.crt");
            Files.writeString(certificate, pem("CERTIFICATE", cert.getEncoded()));
            return certificate;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making a certificate", e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("could not read the certificate keytool made", e);
        } finally {
            Files.deleteIfExists(store);
        }
    }

    private static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    private static boolean isPortBindFailure(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof PortBindException) {
                return true;
            }
        }
        return false;
    }

    /** Shutdown hook: closes Neo4j (waiting for a start in progress) and removes the data. */
    private void stop() {
        Neo4j toClose;
        Path dir;
        synchronized (lock) {
            if (stopped) {
                return;
            }
            stopped = true;
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (building && System.nanoTime() < deadline) {
                try {
                    lock.wait(1000);
                } catch (InterruptedException e) {
                    break;
                }
            }
            toClose = neo4j;
            neo4j = null;
            dir = workDir;
        }
        long t0 = System.nanoTime();
        if (toClose != null) {
            if (verbose) {
                System.err.println(PREFIX + "stopping");
            }
            try {
                toClose.close();
            } catch (Throwable e) {
                System.err.println(PREFIX + "error while stopping Neo4j: " + e);
            }
        }
        if (dir != null) {
            try {
                deleteRecursively(dir);
            } catch (IOException | UncheckedIOException e) {
                System.err.println(PREFIX + "could not remove " + dir + ": " + e);
            }
        }
        if (verbose) {
            System.err.printf("%sstopped in %d ms%n", PREFIX, Duration.ofNanos(System.nanoTime() - t0).toMillis());
        }
    }

    /**
     * Removes data directories left behind by earlier servers that were killed with SIGKILL (the
     * only way to stop this program without cleanup): those whose owner process no longer exists.
     */
    private void removeStaleDirectories(Path tmp) {
        try (Stream<Path> dirs = Files.list(tmp)) {
            dirs.filter(d -> d.getFileName().toString().startsWith(DIR_PREFIX) && !d.equals(workDir))
                    .filter(d -> Files.isRegularFile(d.resolve(OWNER_FILE)))
                    .forEach(d -> {
                        try {
                            long pid = Long.parseLong(Files.readString(d.resolve(OWNER_FILE)).trim());
                            if (ProcessHandle.of(pid).isEmpty()) {
                                deleteRecursively(d);
                                if (verbose) {
                                    System.err.println(PREFIX + "removed stale " + d);
                                }
                            }
                        } catch (IOException | RuntimeException e) {
                            // someone else's, being removed concurrently, or unreadable: leave it
                        }
                    });
        } catch (IOException | RuntimeException e) {
            // best effort
        }
    }

    private static void awaitStdinEof() {
        InputStream in = System.in;
        byte[] buf = new byte[256];
        try {
            while (in.read(buf) >= 0) {
                // discard; only EOF matters
            }
        } catch (IOException e) {
            // treat a broken stdin like EOF
        }
        System.exit(0); // runs the shutdown hook
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            return s.getLocalPort();
        }
    }

    /** The harness returns once the connector is bound; make sure it accepts connections. */
    private static void awaitBolt(int port, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 1000);
                return;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /**
     * Copies the tail of Neo4j's own log files (inside the working directory) to the given stream.
     * Bounded, so that a caller that reads only stdout cannot dead-lock on a full stderr pipe.
     */
    private void dumpLogs(PrintStream out) {
        Path dir;
        synchronized (lock) {
            dir = workDir;
        }
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(p -> (p.getFileName().toString().equals("neo4j.log")
                            || p.getFileName().toString().equals("debug.log")) && Files.isRegularFile(p))
                    .sorted()
                    .forEach(p -> {
                        try {
                            List<String> lines = Files.readAllLines(p);
                            int from = Math.max(0, lines.size() - LOG_TAIL_LINES);
                            out.printf("---------- %s (last %d of %d lines) ----------%n",
                                    p.getFileName(), lines.size() - from, lines.size());
                            for (String line : lines.subList(from, lines.size())) {
                                out.println(line.length() > 300 ? line.substring(0, 300) + " ..." : line);
                            }
                        } catch (IOException | UncheckedIOException e) {
                            out.println("(unreadable " + p.getFileName() + ": " + e + ")");
                        }
                    });
        } catch (IOException | UncheckedIOException e) {
            out.println("(could not list logs: " + e + ")");
        }
        out.flush();
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
