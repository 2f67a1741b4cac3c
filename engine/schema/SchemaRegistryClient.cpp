#include "engine/schema/SchemaRegistryClient.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QUrl>

#include <curl/curl.h>

#include <cstring>
#include <mutex>

namespace md {

namespace {

// A registry answer is a schema or a list of them; anything larger is not one.
constexpr qsizetype MaxBodyBytes = 16 * 1024 * 1024;

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct SlistDeleter {
    void operator()(curl_slist *list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

struct Body {
    QByteArray data;
    bool tooLarge = false;
};

size_t writeBody(char *ptr, size_t size, size_t count, void *user)
{
    auto *body = static_cast<Body *>(user);
    const size_t n = size * count;
    if (body->data.size() + qsizetype(n) > MaxBodyBytes) {
        body->tooLarge = true;
        return 0; // curl stops with CURLE_WRITE_ERROR
    }
    body->data.append(ptr, qsizetype(n));
    return n;
}

QString percentEncoded(const QString &segment)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(segment));
}

QString versionSegment(int version)
{
    return version < 0 ? QStringLiteral("latest") : QString::number(version);
}

bool isTransportFailure(CURLcode code)
{
    switch (code) {
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_WRITE_ERROR:
    case CURLE_OUT_OF_MEMORY: return false;
    default: return true;
    }
}

bool isTlsFailure(CURLcode code)
{
    switch (code) {
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_USE_SSL_FAILED: return true;
    default: return false;
    }
}

// A TLS failure in words a user can act on: which file or certificate, and what to set.
QString tlsFailureText(CURLcode code, const QString &shown, const QString &caFile, const QString &reason)
{
    if (code == CURLE_SSL_CACERT_BADFILE)
        return QStringLiteral("The TLS CA file %1 of the schema registry at %2 cannot be used: %3.")
            .arg(caFile.isEmpty() ? QStringLiteral("(the system's)") : caFile, shown, reason);
    if (code == CURLE_PEER_FAILED_VERIFICATION) {
        if (caFile.isEmpty())
            return QStringLiteral("The schema registry at %1 answered over TLS with a certificate the system's CAs "
                                  "do not trust: %2. Set the registry's TLS CA file to the CA that signed it.")
                .arg(shown, reason);
        return QStringLiteral("The schema registry at %1 answered over TLS with a certificate the CA file %2 does "
                              "not trust: %3.")
            .arg(shown, caFile, reason);
    }
    return QStringLiteral("The TLS handshake with the schema registry at %1 failed: %2.").arg(shown, reason);
}

QList<SchemaReference> parseReferences(const QJsonValue &value)
{
    QList<SchemaReference> refs;
    const QJsonArray array = value.toArray();
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        refs.append({o.value(QLatin1String("name")).toString(), o.value(QLatin1String("subject")).toString(),
                     o.value(QLatin1String("version")).toInt()});
    }
    return refs;
}

// The registry's own reason ({"error_code": 40403, "message": "Schema not found"}), if it sent one.
QString registryMessage(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    return doc.isObject() ? doc.object().value(QLatin1String("message")).toString() : QString();
}

int registryErrorCode(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    return doc.isObject() ? doc.object().value(QLatin1String("error_code")).toInt() : 0;
}

} // namespace

QString redactedRegistryUrl(const QString &url)
{
    const qsizetype scheme = url.indexOf(QLatin1String("://"));
    const qsizetype start = scheme < 0 ? 0 : scheme + 3;
    qsizetype end = url.size();
    for (QChar c : {QLatin1Char('/'), QLatin1Char('?'), QLatin1Char('#')}) {
        const qsizetype at = url.indexOf(c, start);
        if (at >= 0 && at < end)
            end = at;
    }
    const qsizetype at = url.lastIndexOf(QLatin1Char('@'), end - 1);
    if (at < start || end == start)
        return url;
    return url.left(start) + url.mid(at + 1);
}

struct SchemaRegistryClient::Impl {
    SchemaRegistryConfig config;
    int timeoutMs = 10000;
    QString base; // config.url without trailing slashes
    std::mutex mutex;
    CURL *curl = nullptr;
    char errorText[CURL_ERROR_SIZE] = {}; // a member: the handle keeps pointing at it

    struct Answer {
        long status = 0;
        QByteArray body;
    };

    // Nothing the user might see may carry a secret, even one echoed back by
    // the registry or found in a curl message.
    QString scrubbed(QString text) const
    {
        text.replace(config.url, redactedRegistryUrl(config.url));
        const QString urlPassword = QUrl(config.url).password();
        for (const QString &secret : {config.password, config.token, urlPassword})
            if (secret.size() >= 3)
                text.replace(secret, QStringLiteral("***"));
        return text;
    }

    void fail(RegistryError *error, RegistryError::Kind kind, int status, const QString &message) const
    {
        error->kind = kind;
        error->httpStatus = status;
        error->message = scrubbed(message);
    }

    // One HTTP exchange. nullopt (with *error) when nothing came back or the
    // registry answered with an error status.
    std::optional<Answer> exchange(const char *method, const QString &path, const QByteArray *postBody,
                                   RegistryError *error)
    {
        const QString url = base + path;
        const QString shown = redactedRegistryUrl(url);
        if (!curl) {
            fail(error, RegistryError::Kind::Other, 0, QStringLiteral("The HTTP client could not be created."));
            return std::nullopt;
        }
        if (config.token.contains(QLatin1Char('\r')) || config.token.contains(QLatin1Char('\n'))) {
            fail(error, RegistryError::Kind::Other, 0,
                 QStringLiteral("The schema registry's bearer token contains a line break."));
            return std::nullopt;
        }
        curl_easy_reset(curl); // keeps the connection cache
        const QByteArray urlBytes = url.toUtf8();
        curl_easy_setopt(curl, CURLOPT_URL, urlBytes.constData());
#if LIBCURL_VERSION_NUM >= 0x075500
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
        curl_easy_setopt(curl, CURLOPT_PROTOCOLS, long(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(timeoutMs));
        curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(timeoutMs));
        curl_easy_setopt(curl, CURLOPT_USERAGENT, "MirrorDesk");
        errorText[0] = '\0';
        curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorText);
        Body body;
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, writeBody);
        curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);

        Slist headers(curl_slist_append(nullptr, "Accept: application/vnd.schemaregistry.v1+json, application/json"));
        QByteArray user, password, bearer;
        if (!config.username.isEmpty()) {
            user = config.username.toUtf8();
            password = config.password.toUtf8();
            curl_easy_setopt(curl, CURLOPT_HTTPAUTH, long(CURLAUTH_BASIC)); // sent with the first request
            curl_easy_setopt(curl, CURLOPT_USERNAME, user.constData());
            curl_easy_setopt(curl, CURLOPT_PASSWORD, password.constData());
        } else if (!config.token.isEmpty()) {
            bearer = "Authorization: Bearer " + config.token.toUtf8();
            headers.reset(curl_slist_append(headers.release(), bearer.constData()));
        }
        const QByteArray caFile = QFile::encodeName(config.caFile);
        if (!caFile.isEmpty())
            curl_easy_setopt(curl, CURLOPT_CAINFO, caFile.constData());
        if (postBody) {
            headers.reset(curl_slist_append(headers.release(), "Content-Type: application/vnd.schemaregistry.v1+json"));
            curl_easy_setopt(curl, CURLOPT_POST, 1L);
            curl_easy_setopt(curl, CURLOPT_POSTFIELDS, postBody->constData());
            curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(postBody->size()));
            if (std::strcmp(method, "POST") != 0)
                curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method); // PUT with the same body handling
        } else {
            curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
        }
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.get());

        const CURLcode code = curl_easy_perform(curl);
        // Secrets leave the handle's options once the call is done.
        bearer.fill('\0');
        password.fill('\0');
        if (code != CURLE_OK) {
            if (body.tooLarge) {
                fail(error, RegistryError::Kind::BadResponse, 0,
                     QStringLiteral("The schema registry's answer for %1 is larger than %2 MiB.")
                         .arg(shown, QString::number(MaxBodyBytes / (1024 * 1024))));
                return std::nullopt;
            }
            const QString reason =
                errorText[0] ? QString::fromUtf8(errorText) : QString::fromUtf8(curl_easy_strerror(code));
            if (isTlsFailure(code))
                fail(error, RegistryError::Kind::Tls, 0, tlsFailureText(code, shown, config.caFile, reason));
            else if (isTransportFailure(code))
                fail(error, RegistryError::Kind::Unreachable, 0,
                     QStringLiteral("The schema registry at %1 could not be reached: %2.").arg(shown, reason));
            else
                fail(error, RegistryError::Kind::Other, 0,
                     QStringLiteral("The schema registry URL %1 cannot be used: %2.").arg(shown, reason));
            return std::nullopt;
        }
        Answer answer;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &answer.status);
        answer.body = std::move(body.data);
        if (answer.status >= 200 && answer.status < 300)
            return answer;

        const QString said = registryMessage(answer.body);
        const QString detail = said.isEmpty() ? QString() : QStringLiteral(": ") + said;
        const int status = int(answer.status);
        RegistryError::Kind kind = RegistryError::Kind::Other;
        // One multi-arg call: a percent-encoded subject in `shown` must not be taken for a placeholder.
        QString message = QStringLiteral("The schema registry answered HTTP %1 for %2%3.")
                              .arg(QString::number(status), shown, detail);
        if (status == 401 || status == 403) {
            kind = RegistryError::Kind::Unauthorized;
            message = QStringLiteral("The schema registry at %1 refused the credentials (HTTP %2)%3.")
                          .arg(shown, QString::number(status), detail);
        } else if (status == 404) {
            kind = RegistryError::Kind::NotFound;
        }
        fail(error, kind, status, message);
        lastErrorCode = registryErrorCode(answer.body);
        return std::nullopt;
    }

    int lastErrorCode = 0; // the registry's error_code of the last failed exchange

    std::optional<QJsonDocument> getJson(const QString &path, RegistryError *error, const QByteArray *post = nullptr)
    {
        return sendJson(post ? "POST" : "GET", path, error, post);
    }

    std::optional<QJsonDocument> sendJson(const char *method, const QString &path, RegistryError *error,
                                          const QByteArray *body)
    {
        lastErrorCode = 0;
        std::optional<Answer> answer = exchange(method, path, body, error);
        if (!answer)
            return std::nullopt;
        QJsonParseError parse;
        QJsonDocument doc = QJsonDocument::fromJson(answer->body, &parse);
        if (parse.error != QJsonParseError::NoError || doc.isNull()) {
            fail(error, RegistryError::Kind::BadResponse, int(answer->status),
                 QStringLiteral("The schema registry's answer for %1 is not JSON (%2).")
                     .arg(redactedRegistryUrl(base + path), parse.errorString()));
            return std::nullopt;
        }
        return doc;
    }

    void badShape(RegistryError *error, const QString &path, const QString &expected)
    {
        fail(error, RegistryError::Kind::BadResponse, 200,
             QStringLiteral("The schema registry's answer for %1 is not %2.")
                 .arg(redactedRegistryUrl(base + path), expected));
    }

    std::optional<RegistrySchema> schemaFrom(const QJsonDocument &doc, const QString &path, RegistryError *error)
    {
        const QJsonObject o = doc.object();
        const QJsonValue text = o.value(QLatin1String("schema"));
        if (!doc.isObject() || !text.isString()) {
            badShape(error, path, QStringLiteral("a schema"));
            return std::nullopt;
        }
        RegistrySchema schema;
        schema.id = o.value(QLatin1String("id")).toInt();
        schema.subject = o.value(QLatin1String("subject")).toString();
        schema.version = o.value(QLatin1String("version")).toInt();
        schema.type = o.value(QLatin1String("schemaType")).toString(QStringLiteral("AVRO"));
        if (schema.type.isEmpty())
            schema.type = QStringLiteral("AVRO");
        schema.text = text.toString().toUtf8();
        schema.references = parseReferences(o.value(QLatin1String("references")));
        return schema;
    }

    // GET /config[/subject]: the level; for a subject without one of its own
    // (404, error_code 40408 on Confluent) an empty string.
    std::optional<QString> compatibilityLevel(const QString &path, RegistryError *error)
    {
        std::optional<QJsonDocument> doc = getJson(path, error);
        if (!doc) {
            if (path != QLatin1String("/config") &&
                (error->kind == RegistryError::Kind::NotFound || lastErrorCode == 40408)) {
                *error = {};
                return QString();
            }
            return std::nullopt;
        }
        const QJsonObject o = doc->object();
        // GET answers compatibilityLevel; some registries answer the PUT's name.
        QString value = o.value(QLatin1String("compatibilityLevel")).toString();
        if (value.isEmpty())
            value = o.value(QLatin1String("compatibility")).toString();
        if (value.isEmpty()) {
            badShape(error, path, QStringLiteral("a compatibility level"));
            return std::nullopt;
        }
        return value;
    }
};

SchemaRegistryClient::SchemaRegistryClient(SchemaRegistryConfig config, int timeoutMs) : d(std::make_unique<Impl>())
{
    initCurlOnce();
    d->config = std::move(config);
    d->timeoutMs = timeoutMs > 0 ? timeoutMs : 10000;
    d->base = d->config.url.trimmed();
    while (d->base.endsWith(QLatin1Char('/')))
        d->base.chop(1);
    d->curl = curl_easy_init();
}

SchemaRegistryClient::~SchemaRegistryClient()
{
    if (d->curl)
        curl_easy_cleanup(d->curl);
}

const SchemaRegistryConfig &SchemaRegistryClient::config() const
{
    return d->config;
}

namespace {
RegistryError *orLocal(RegistryError *error, RegistryError *local)
{
    RegistryError *e = error ? error : local;
    *e = {};
    return e;
}
} // namespace

std::optional<RegistrySchema> SchemaRegistryClient::schemaById(int id, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/schemas/ids/") + QString::number(id);
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    std::optional<RegistrySchema> schema = d->schemaFrom(*doc, path, error);
    if (schema)
        schema->id = id;
    return schema;
}

std::optional<QList<SubjectVersion>> SchemaRegistryClient::versionsOfId(int id, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/schemas/ids/%1/versions").arg(id);
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    if (!doc->isArray()) {
        d->badShape(error, path, QStringLiteral("a list of subject versions"));
        return std::nullopt;
    }
    QList<SubjectVersion> out;
    const QJsonArray array = doc->array();
    for (const QJsonValue &v : array) {
        const QJsonObject o = v.toObject();
        out.append({o.value(QLatin1String("subject")).toString(), o.value(QLatin1String("version")).toInt()});
    }
    return out;
}

std::optional<QStringList> SchemaRegistryClient::subjects(RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/subjects");
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    if (!doc->isArray()) {
        d->badShape(error, path, QStringLiteral("a list of subjects"));
        return std::nullopt;
    }
    QStringList out;
    const QJsonArray array = doc->array();
    for (const QJsonValue &v : array)
        out.append(v.toString());
    return out;
}

std::optional<QList<int>> SchemaRegistryClient::versions(const QString &subject, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/subjects/") + percentEncoded(subject) + QStringLiteral("/versions");
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    if (!doc->isArray()) {
        d->badShape(error, path, QStringLiteral("a list of versions"));
        return std::nullopt;
    }
    QList<int> out;
    const QJsonArray array = doc->array();
    for (const QJsonValue &v : array)
        out.append(v.toInt());
    return out;
}

std::optional<RegistrySchema> SchemaRegistryClient::schemaByVersion(const QString &subject, int version,
                                                                    RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path =
        QStringLiteral("/subjects/") + percentEncoded(subject) + QStringLiteral("/versions/") + versionSegment(version);
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    std::optional<RegistrySchema> schema = d->schemaFrom(*doc, path, error);
    if (schema && schema->subject.isEmpty())
        schema->subject = subject;
    return schema;
}

std::optional<QString> SchemaRegistryClient::compatibility(const QString &subject, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    if (!subject.isEmpty()) {
        std::optional<QString> own = d->compatibilityLevel(QStringLiteral("/config/") + percentEncoded(subject), error);
        if (!own || !own->isEmpty())
            return own;
    }
    return d->compatibilityLevel(QStringLiteral("/config"), error);
}

std::optional<QString> SchemaRegistryClient::subjectCompatibility(const QString &subject, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    return d->compatibilityLevel(QStringLiteral("/config/") + percentEncoded(subject), error);
}

namespace {
// The body of a register or lookup.
QJsonObject schemaRequest(const QString &type, const QByteArray &text, const QList<SchemaReference> &references)
{
    QJsonObject request;
    if (!type.isEmpty())
        request.insert(QLatin1String("schemaType"), type);
    request.insert(QLatin1String("schema"), QString::fromUtf8(text));
    if (!references.isEmpty()) {
        QJsonArray refs;
        for (const SchemaReference &r : references)
            refs.append(QJsonObject{{QLatin1String("name"), r.name},
                                    {QLatin1String("subject"), r.subject},
                                    {QLatin1String("version"), r.version}});
        request.insert(QLatin1String("references"), refs);
    }
    return request;
}
} // namespace

std::optional<RegistrySchema> SchemaRegistryClient::lookupSchema(const QString &subject, const QString &type,
                                                                 const QByteArray &text,
                                                                 const QList<SchemaReference> &references,
                                                                 RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    const QByteArray body = QJsonDocument(schemaRequest(type, text, references)).toJson(QJsonDocument::Compact);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/subjects/") + percentEncoded(subject);
    std::optional<QJsonDocument> doc = d->getJson(path, error, &body);
    if (!doc)
        return std::nullopt;
    std::optional<RegistrySchema> schema = d->schemaFrom(*doc, path, error);
    if (schema && schema->subject.isEmpty())
        schema->subject = subject;
    return schema;
}

bool SchemaRegistryClient::setCompatibility(const QString &subject, const QString &level, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    const QByteArray body =
        QJsonDocument(QJsonObject{{QLatin1String("compatibility"), level}}).toJson(QJsonDocument::Compact);
    std::lock_guard lock(d->mutex);
    return d->sendJson("PUT", QStringLiteral("/config/") + percentEncoded(subject), error, &body).has_value();
}

std::optional<QString> SchemaRegistryClient::mode(const QString &subject, RegistryError *error)
{
    RegistryError local;
    error = orLocal(error, &local);
    std::lock_guard lock(d->mutex);
    const QString path = subject.isEmpty() ? QStringLiteral("/mode")
                                           : QStringLiteral("/mode/") + percentEncoded(subject) +
                                                 QStringLiteral("?defaultToGlobal=true");
    std::optional<QJsonDocument> doc = d->getJson(path, error);
    if (!doc)
        return std::nullopt;
    const QString m = doc->object().value(QLatin1String("mode")).toString();
    if (m.isEmpty()) {
        d->badShape(error, path, QStringLiteral("a mode"));
        return std::nullopt;
    }
    return m;
}

std::optional<int> SchemaRegistryClient::registerSchema(const QString &subject, const QString &type,
                                                        const QByteArray &text,
                                                        const QList<SchemaReference> &references, RegistryError *error,
                                                        int id)
{
    RegistryError local;
    error = orLocal(error, &local);
    QJsonObject request = schemaRequest(type, text, references);
    if (id > 0)
        request.insert(QLatin1String("id"), id);
    const QByteArray body = QJsonDocument(request).toJson(QJsonDocument::Compact);
    std::lock_guard lock(d->mutex);
    const QString path = QStringLiteral("/subjects/") + percentEncoded(subject) + QStringLiteral("/versions");
    std::optional<QJsonDocument> doc = d->getJson(path, error, &body);
    if (!doc)
        return std::nullopt;
    const QJsonValue given = doc->object().value(QLatin1String("id"));
    if (!given.isDouble()) {
        d->badShape(error, path, QStringLiteral("a schema id"));
        return std::nullopt;
    }
    return given.toInt();
}

RegistryProbe probeSchemaRegistry(const SchemaRegistryConfig &config, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    RegistryProbe probe;
    if (!config.isSet()) {
        probe.error = {RegistryError::Kind::Other, 0, QStringLiteral("No schema registry URL is set.")};
    } else {
        SchemaRegistryClient client(config, timeoutMs);
        std::optional<QStringList> subjects = client.subjects(&probe.error);
        if (subjects)
            probe.subjectCount = int(subjects->size());
    }
    probe.elapsedMs = timer.elapsed();
    return probe;
}

} // namespace md
