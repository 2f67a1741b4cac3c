#include "ui/cluster/OtherSideLookup.h"

#include "ui/cluster/ClusterPane.h"
#include "ui/cluster/MessagesPanel.h"
#include "ui/widgets/Background.h"

#include "model/profile/OtherSideJobs.h"

#include <QAction>
#include <QTabWidget>

namespace md {

namespace {

constexpr int TimeoutMs = 15000;

QString clusterName(const ClusterConfig &c)
{
    return c.alias.isEmpty() ? c.bootstrap : c.alias;
}

} // namespace

struct OtherSideLookup::Answer {
    OtherSideOffset result;
    QString job;
    quint64 generation = 0;
};

OtherSideLookup::OtherSideLookup(ClusterPane *first, ClusterPane *second, JobsProvider jobs, QObject *parent)
    : QObject(parent), m_first(first), m_second(second), m_jobs(std::move(jobs))
{
    for (ClusterPane *pane : {m_first, m_second}) {
        MessagesPanel *panel = pane->messagesPanel();
        connect(panel, &MessagesPanel::currentMessageChanged, this, [this, pane] { updateAction(pane); });
        connect(panel->showOnOtherAction(), &QAction::triggered, this, [this, pane] { showOnOther(pane); });
    }
}

OtherSideLookup::~OtherSideLookup() = default;

void OtherSideLookup::update()
{
    updateAction(m_first);
    updateAction(m_second);
}

void OtherSideLookup::updateAction(ClusterPane *pane)
{
    QAction *action = pane->messagesPanel()->showOnOtherAction();
    const KafkaMessage *m = pane->messagesPanel()->currentMessage();
    const ClusterConfig &other = otherOf(pane)->client()->config();
    QString why;
    if (!m) {
        why = tr("Select a record first");
    } else if (other.bootstrap.isEmpty()) {
        why = tr("The other cluster is not connected");
    } else {
        const QList<OtherSideCandidate> jobs =
            otherSideCandidates(m_jobs(), pane->client()->config(), other, m->topic, &why);
        if (!jobs.isEmpty()) {
            QStringList names;
            for (const OtherSideCandidate &c : jobs)
                names.append(QLatin1Char('"') + c.spec.name + QLatin1Char('"'));
            action->setEnabled(true);
            action->setToolTip(tr("Open this record on %1 at its exact offset, through the offset map of job %2")
                                   .arg(clusterName(other), names.join(tr(" or "))));
            return;
        }
    }
    action->setEnabled(false);
    action->setToolTip(why);
}

void OtherSideLookup::showOnOther(ClusterPane *pane)
{
    MessagesPanel *panel = pane->messagesPanel();
    const KafkaMessage *m = panel->currentMessage();
    if (!m)
        return;
    QString why;
    const QList<OtherSideCandidate> jobs =
        otherSideCandidates(m_jobs(), pane->client()->config(), otherOf(pane)->client()->config(), m->topic, &why);
    if (jobs.isEmpty()) {
        panel->showStatus(why, true);
        Q_EMIT lookupFinished(false, why);
        return;
    }
    const QString topic = m->topic;
    const int partition = m->partition;
    const qint64 offset = m->offset;
    const quint64 generation = ++m_generation;
    panel->showStatus(
        tr("Looking up offset %1 of %2 [%3] in the offset map\u2026").arg(offset).arg(topic).arg(partition), false);
    inBackground<Answer>(
        this,
        [jobs, topic, partition, offset, generation] {
            // The first job whose map knows the partition answers; when none does, the first one's answer says why.
            Answer first;
            for (const OtherSideCandidate &c : jobs) {
                Answer a{lookUpOtherSide(c.spec, topic, partition, offset, c.direction, TimeoutMs), c.spec.name,
                         generation};
                const auto kind = a.result.kind;
                if (kind != OtherSideOffset::Kind::NotInMap && kind != OtherSideOffset::Kind::Error)
                    return a;
                if (first.job.isEmpty())
                    first = a;
            }
            return first;
        },
        [this, pane](const Answer &a) { finish(pane, a); });
}

void OtherSideLookup::finish(ClusterPane *pane, const Answer &a)
{
    if (a.generation != m_generation)
        return;
    MessagesPanel *panel = pane->messagesPanel();
    if (!a.result.found()) {
        const QString text = a.result.kind == OtherSideOffset::Kind::Error
                                 ? tr("Cannot read the offset map of job \"%1\": %2").arg(a.job, a.result.why)
                                 : a.result.why;
        panel->showStatus(text, true);
        Q_EMIT lookupFinished(false, text);
        return;
    }
    ClusterPane *other = otherOf(pane);
    other->tabs()->setCurrentWidget(other->messagesPanel());
    Q_EMIT paneShown(other);
    other->messagesPanel()->openAt(a.result.topic, a.result.partition, a.result.offset);
    const QString text = tr("Shown on %1: %2 [%3] offset %4 (job \"%5\")")
                             .arg(clusterName(other->client()->config()), a.result.topic)
                             .arg(a.result.partition)
                             .arg(a.result.offset)
                             .arg(a.job);
    panel->showStatus(text, false);
    Q_EMIT lookupFinished(true, text);
}

} // namespace md
