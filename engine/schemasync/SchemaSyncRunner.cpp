#include "engine/schemasync/SchemaSyncRunner.h"

#include "engine/mirror/RunnerEvents.h"
#include "engine/mirror/TopicNaming.h"

#include <QDateTime>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace md {

namespace {

constexpr int kRegistryTimeoutMs = 10000;

} // namespace

SchemaSyncRound runSchemaSyncRound(const MirrorJobSpec &spec, SchemaRegistryClient &source,
                                   SchemaRegistryClient &target, bool apply)
{
    SchemaSyncRound r;
    RegistryError e;
    if (spec.schemaIds == MirrorJobSpec::SchemaIds::Preserve) {
        const std::optional<QString> mode = target.mode(QString(), &e);
        if (!mode && e.kind == RegistryError::Kind::NotFound) {
            r.fatal = true;
            r.error = QStringLiteral("schemas.ids preserve needs a target registry that takes schemas under given ids "
                                     "(Confluent's IMPORT mode); this one has no mode API (GET /mode: %1). Use "
                                     "\"ids\": \"translate\"")
                          .arg(e.message);
            return r;
        }
        if (!mode) {
            r.error = QStringLiteral("schemas.ids preserve: cannot read the target registry's mode: ") + e.message;
            return r;
        }
        r.targetMode = *mode;
        if (*mode != QLatin1String("IMPORT")) {
            r.fatal = true;
            r.error = QStringLiteral("schemas.ids preserve needs the target registry in IMPORT mode (it is in %1): "
                                     "only then does it take a schema under the source's id. Switch it to IMPORT "
                                     "(PUT /mode {\"mode\": \"IMPORT\"}) while the migration runs, or use "
                                     "\"ids\": \"translate\"")
                          .arg(*mode);
            return r;
        }
    }
    const std::optional<QStringList> subjects = source.subjects(&e);
    if (!subjects) {
        r.error = QStringLiteral("cannot list the source registry's subjects: ") + e.message;
        return r;
    }
    r.subjects = topicSubjectsToSync(spec, *subjects);
    SchemaCopier copier(spec, source, target, apply);
    for (const QString &s : std::as_const(r.subjects)) {
        QString error;
        if (!copier.copySubject(s, &error))
            r.failures << error;
    }
    r.steps = copier.steps();
    r.ids = copier.ids();
    r.ok = true;
    return r;
}

struct SchemaSyncRunner::Shared {
    MirrorJobSpec spec;
    std::shared_ptr<SchemaIdMap> map;
    std::mutex mutex;
    std::condition_variable cv;
    bool done = false;
    RunnerEvents events{std::chrono::minutes(10)};
    std::unique_ptr<SchemaRegistryClient> source, target;
    std::unique_ptr<SchemaCopier> copier; // the current round's: its cache spares registry calls

    void reportSteps(const QList<SchemaCopyStep> &steps, qsizetype from)
    {
        for (qsizetype i = from; i < steps.size(); ++i) {
            const SchemaCopyStep &s = steps.at(i);
            if (!s.created)
                continue;
            events.report(
                JobEvent::Severity::Info,
                QStringLiteral("schema sync: registered %1 version %2 (id %3) on the target registry, from %4 "
                               "version %5 (id %6)%7")
                    .arg(s.targetSubject)
                    .arg(s.targetVersion)
                    .arg(s.targetId)
                    .arg(s.sourceSubject)
                    .arg(s.sourceVersion)
                    .arg(s.sourceId)
                    .arg(s.compatibility.isEmpty()
                             ? QString()
                             : QStringLiteral("; compatibility %1 as on the source").arg(s.compatibility)));
        }
    }

    // False: schema sync cannot go on in this run (the map says why).
    bool round()
    {
        const SchemaSyncRound r = runSchemaSyncRound(spec, *source, *target, true);
        if (r.fatal) {
            map->setFatal(r.error);
            return false;
        }
        if (!r.ok) {
            events.warnOnce(QStringLiteral("round"), QStringLiteral("schema sync: ") + r.error);
            return true;
        }
        reportSteps(r.steps, 0);
        for (const QString &f : r.failures)
            events.warnOnce(QStringLiteral("subject:") + f, QStringLiteral("schema sync: ") + f);
        for (auto it = r.ids.cbegin(); it != r.ids.cend(); ++it)
            map->setMapped(it.key(), it.value());
        for (const QString &s : r.subjects)
            if (const auto t = topicOfSubject(s))
                answerTopic(t->topic, r.subjects);
        copier = std::make_unique<SchemaCopier>(spec, *source, *target, true);
        return true;
    }

    void answerTopic(const QString &topic, const QStringList &following)
    {
        map->setTopicUse(topic, following.contains(subjectOfTopic(topic, true)),
                         following.contains(subjectOfTopic(topic, false)));
    }

    void answer(const QSet<int> &ids, const QSet<QString> &topics)
    {
        if (!topics.isEmpty()) {
            RegistryError e;
            const std::optional<QStringList> subjects = source->subjects(&e);
            if (!subjects) {
                // Unanswered: the engine asks again, its partitions wait.
                events.warnOnce(QStringLiteral("subjects"),
                                QStringLiteral("schema sync: cannot list the source registry's subjects: ") +
                                    e.message);
            } else {
                const QStringList following = topicSubjectsToSync(spec, *subjects);
                for (const QString &t : topics)
                    answerTopic(t, following);
            }
        }
        for (int id : ids) {
            const qsizetype before = copier->steps().size();
            QString subject, error;
            const std::optional<int> target = copier->copyId(id, &subject, &error);
            reportSteps(copier->steps(), before);
            if (target)
                map->setMapped(id, *target);
            else
                map->setFailed(id, subject.isEmpty() ? error : QStringLiteral("subject %1: %2").arg(subject, error));
        }
    }
};

SchemaSyncRunner::SchemaSyncRunner(MirrorJobSpec spec, EventSink events)
    : m_shared(std::make_shared<Shared>()), m_map(std::make_shared<SchemaIdMap>())
{
    m_shared->spec = std::move(spec);
    m_shared->events.setSink(std::move(events));
    m_shared->map = m_map;
}

SchemaSyncRunner::~SchemaSyncRunner()
{
    stop();
    finish(1000);
}

void SchemaSyncRunner::start()
{
    if (m_thread.isStarted())
        return;
    m_thread.start([s = m_shared] {
        const auto interval = std::chrono::milliseconds(std::max(1000, s->spec.schemaSyncIntervalMs));
        s->source = std::make_unique<SchemaRegistryClient>(s->spec.source.schemaRegistry, kRegistryTimeoutMs);
        s->target = std::make_unique<SchemaRegistryClient>(s->spec.target.schemaRegistry, kRegistryTimeoutMs);
        s->copier = std::make_unique<SchemaCopier>(s->spec, *s->source, *s->target, true);
        auto nextRound = std::chrono::steady_clock::now();
        while (!s->map->stopped()) {
            if (std::chrono::steady_clock::now() >= nextRound) {
                if (!s->round())
                    break;
                nextRound = std::chrono::steady_clock::now() + interval;
            }
            const auto wait =
                std::chrono::duration_cast<std::chrono::milliseconds>(nextRound - std::chrono::steady_clock::now());
            QSet<int> ids;
            QSet<QString> topics;
            s->map->waitForQuestions(int(std::max<qint64>(1, wait.count())), &ids, &topics);
            if (!s->map->stopped())
                s->answer(ids, topics);
        }
        // Closed on this thread: whoever lets go of Shared last has none to close.
        s->copier.reset();
        s->source.reset();
        s->target.reset();
        {
            std::lock_guard lock(s->mutex);
            s->done = true;
        }
        s->cv.notify_all();
    });
}

void SchemaSyncRunner::stop()
{
    m_map->stop();
}

void SchemaSyncRunner::finish(int timeoutMs)
{
    if (!m_thread.isStarted())
        return;
    std::unique_lock lock(m_shared->mutex);
    if (m_shared->cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [&] { return m_shared->done; })) {
        lock.unlock();
        m_thread.join();
        return;
    }
    lock.unlock();
    m_shared->events.cutOff(); // still inside a registry call (bounded by its timeout): it ends on its own
}

} // namespace md
