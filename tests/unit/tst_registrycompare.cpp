// The registries of a job's two clusters compared (engine/schema/RegistryCompare.h),
// over answers written by hand: every verdict, the sentence the user reads,
// renamed target topics, one-sided and silent registries; and the copy
// dialog's per-id judgement.
#include "engine/admin/AdminService.h"
#include "engine/schema/RegistryCompare.h"

#include <QtTest/QTest>

using namespace md;

namespace {

RegistrySchema schema(int id, const QString &subject, int version, const QByteArray &text,
                      const QString &type = QStringLiteral("AVRO"))
{
    RegistrySchema s;
    s.id = id;
    s.subject = subject;
    s.version = version;
    s.type = type;
    s.text = text;
    return s;
}

const QByteArray kOrderV1 = R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]})";
const QByteArray kOrderV2 =
    R"({"type":"record","name":"Order","fields":[{"name":"id","type":"long"},{"name":"n","type":"string"}]})";
const QByteArray kOther = R"({"type":"record","name":"Payment","fields":[{"name":"p","type":"int"}]})";

RegistryAnswers side(const QString &url)
{
    RegistryAnswers a;
    a.configured = true;
    a.url = url;
    return a;
}

// Source: orders-value v1 (id 1), v2 (id 2); orders-key v1 (id 3, a string).
RegistryAnswers sourceAnswers()
{
    RegistryAnswers s = side(QStringLiteral("http://src"));
    s.subjects = {QStringLiteral("orders-value"), QStringLiteral("orders-key"), QStringLiteral("unrelated-value")};
    s.versions.insert(QStringLiteral("orders-value"), {schema(1, QStringLiteral("orders-value"), 1, kOrderV1),
                                                       schema(2, QStringLiteral("orders-value"), 2, kOrderV2)});
    s.versions.insert(QStringLiteral("orders-key"), {schema(3, QStringLiteral("orders-key"), 1, "\"string\"")});
    return s;
}

// A target registry holding exactly the source's schemas under `prefix`<subject>, same ids.
RegistryAnswers sameTarget(const QString &prefix = {})
{
    RegistryAnswers t = side(QStringLiteral("http://dst"));
    t.subjects = {prefix + QStringLiteral("orders-value"), prefix + QStringLiteral("orders-key")};
    t.ids.insert(1, schema(1, {}, 0, kOrderV1));
    t.ids.insert(2, schema(2, {}, 0, kOrderV2));
    t.ids.insert(3, schema(3, {}, 0, "\"string\""));
    return t;
}

const QList<MirroredTopic> kIdentity{{QStringLiteral("orders"), QStringLiteral("orders")}};
const QList<MirroredTopic> kPrefixed{{QStringLiteral("orders"), QStringLiteral("eu.orders")}};

} // namespace

class TestRegistryCompare : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void topicNameStrategy()
    {
        QCOMPARE(topicSubjects(QStringLiteral("a.b")),
                 QStringList({QStringLiteral("a.b-key"), QStringLiteral("a.b-value")}));
    }

    void sameRegistriesHaveNoFindings()
    {
        const RegistryComparison c = compareRegistries(kIdentity, sourceAnswers(), sameTarget());
        QCOMPARE(c.state, RegistryComparison::State::Compared);
        QVERIFY2(c.findings.isEmpty(), qPrintable(c.lines().join(QLatin1Char('\n'))));
        QCOMPARE(c.subjects, 2);
        QCOMPARE(c.ids, 3);
        QCOMPARE(c.summary(), QStringLiteral("schemas: 2 subjects, 3 ids compared: the target registry has every one"));
        // Whitespace around the text is not a difference.
        RegistryAnswers t = sameTarget();
        t.ids[1]->text = "  " + kOrderV1 + "\n";
        QVERIFY(compareRegistries(kIdentity, sourceAnswers(), t).findings.isEmpty());
    }

    void subjectMissingUnderTheTargetTopicName()
    {
        // Same ids, but the target registry has the subjects under the source topic's
        // name, not the renamed target topic's.
        const RegistryComparison c = compareRegistries(kPrefixed, sourceAnswers(), sameTarget());
        QCOMPARE(c.findings.size(), 2);
        for (const SchemaFinding &f : c.findings)
            QCOMPARE(f.kind, SchemaFinding::Kind::SubjectMissing);
        const SchemaFinding &value = c.findings.at(1);
        QCOMPARE(value.sourceSubject, QStringLiteral("orders-value"));
        QCOMPARE(value.targetSubject, QStringLiteral("eu.orders-value"));
        QCOMPARE(value.text, QStringLiteral("orders-value: missing on the target registry (as eu.orders-value, the "
                                            "subject of target topic eu.orders) (2 versions on the source)"));
        // With the subjects there under the renamed names: nothing to say.
        QVERIFY(compareRegistries(kPrefixed, sourceAnswers(), sameTarget(QStringLiteral("eu."))).findings.isEmpty());
        QVERIFY(c.summary().endsWith(QStringLiteral(": 2 subjects missing on the target")));
    }

    void idAbsentOnTarget()
    {
        RegistryAnswers t = sameTarget();
        t.ids.insert(2, std::nullopt);
        const RegistryComparison c = compareRegistries(kIdentity, sourceAnswers(), t);
        QCOMPARE(c.findings.size(), 1);
        const SchemaFinding &f = c.findings.first();
        QCOMPARE(f.kind, SchemaFinding::Kind::IdAbsent);
        QCOMPARE(f.schemaId, 2);
        QCOMPARE(f.version, 2);
        QCOMPARE(f.text, QStringLiteral("orders-value version 2 (latest): records copied byte for byte will point at "
                                        "schema id 2, which on the target registry is absent"));
    }

    void idIsAnotherSchemaOnTarget()
    {
        RegistryAnswers t = sameTarget();
        t.ids.insert(1, schema(1, {}, 0, kOther));
        t.idUses.insert(1, {{QStringLiteral("payments-value"), 4}});
        t.ids.insert(3, schema(3, {}, 0, "syntax = \"proto3\"; message K {}", QStringLiteral("PROTOBUF")));
        const RegistryComparison c = compareRegistries(kIdentity, sourceAnswers(), t);
        QCOMPARE(c.findings.size(), 2);
        // Keys first (TopicNameStrategy's order), then values.
        QCOMPARE(c.findings.at(0).kind, SchemaFinding::Kind::IdDiffers);
        QCOMPARE(c.findings.at(0).text, QStringLiteral("orders-key version 1 (latest): records copied byte for byte "
                                                       "will point at schema id 3, which on the target registry is a "
                                                       "PROTOBUF schema, not AVRO"));
        QCOMPARE(c.findings.at(1).text, QStringLiteral("orders-value version 1: records copied byte for byte will "
                                                       "point at schema id 1, which on the target registry is "
                                                       "payments-value version 4 (a different AVRO schema)"));
        QCOMPARE(c.summary(), QStringLiteral("schemas: 2 subjects, 3 ids compared: 2 ids absent or different on the "
                                             "target"));
    }

    void topicsWithoutSubjectsAreNotCompared()
    {
        const QList<MirroredTopic> topics{{QStringLiteral("clicks"), QStringLiteral("clicks")}};
        const RegistryComparison c = compareRegistries(topics, sourceAnswers(), sameTarget());
        QCOMPARE(c.subjects, 0);
        QVERIFY(c.findings.isEmpty());
    }

    void oneSidedIsSaidOnce()
    {
        RegistryAnswers none;
        const RegistryComparison a = compareRegistries(kIdentity, sourceAnswers(), none);
        QCOMPARE(a.state, RegistryComparison::State::OneSided);
        QCOMPARE(a.notes.size(), 1);
        QVERIFY2(
            a.notes.first().startsWith(QStringLiteral("only the source cluster has a schema registry (http://src)")),
            qPrintable(a.notes.first()));
        QVERIFY(a.findings.isEmpty());
        const RegistryComparison b = compareRegistries(kIdentity, none, sameTarget());
        QVERIFY(b.notes.first().startsWith(QStringLiteral("only the target cluster")));
        const RegistryComparison n = compareRegistries(kIdentity, none, none);
        QCOMPARE(n.state, RegistryComparison::State::NoRegistry);
        QVERIFY(n.lines().isEmpty());
    }

    void silentRegistryIsANoteNamingIt()
    {
        RegistryAnswers t = sameTarget();
        t.error = QStringLiteral("http://dst/subjects: connection refused");
        const RegistryComparison c = compareRegistries(kIdentity, sourceAnswers(), t);
        QCOMPARE(c.state, RegistryComparison::State::NotRead);
        QCOMPARE(c.notes, QStringList{QStringLiteral("target registry http://dst not compared: http://dst/subjects: "
                                                     "connection refused")});
    }

    void unreadableIdsAndSubjects()
    {
        RegistryAnswers s = sourceAnswers();
        s.versions.remove(QStringLiteral("orders-key"));
        s.subjectErrors.insert(QStringLiteral("orders-key"), QStringLiteral("HTTP 500"));
        RegistryAnswers t = sameTarget();
        t.ids.remove(2);
        t.idErrors.insert(2, QStringLiteral("timed out"));
        const RegistryComparison c = compareRegistries(kIdentity, s, t);
        QCOMPARE(c.findings.size(), 2);
        for (const SchemaFinding &f : c.findings)
            QCOMPARE(f.kind, SchemaFinding::Kind::Unchecked);
        QVERIFY(c.findings.at(0).text.contains(QStringLiteral("HTTP 500")));
        QVERIFY(c.findings.at(1).text.contains(QStringLiteral("schema id 2 not checked on the target registry: timed "
                                                              "out")));
    }

    void wireIdsOfMessages()
    {
        KafkaMessage a, b, c;
        a.value = QByteArray("\0\0\0\0\x07payload", 12);
        a.key = QByteArray("\0\0\0\0\x02k", 6);
        b.value = QByteArray("\0\0\0\0\x07more", 9);
        c.value = QByteArray("plain text");
        c.key = std::nullopt;
        QCOMPARE(wireSchemaIds({a, b, c}), QList<int>({2, 7}));
    }

    void copyJudgement()
    {
        QHash<int, IdAnswer> s, t;
        s.insert(1, {schema(1, {}, 0, kOrderV1), {}, {}});
        s.insert(2, {schema(2, {}, 0, kOrderV2), {}, {}});
        s.insert(5, {std::nullopt, {}, {}}); // the source does not know it: not a schema record
        s.insert(6, {schema(6, {}, 0, kOther), {}, {}});
        t.insert(1, {schema(1, {}, 0, kOrderV1), {}, {}});
        t.insert(2, {std::nullopt, {}, {}});
        t.insert(6, {schema(6, {}, 0, kOrderV1), {{QStringLiteral("orders-value"), 1}}, {}});
        const CopySchemaCheck c = judgeCopySchemaIds({1, 2, 5, 6}, s, t, QStringLiteral("http://dst"));
        QVERIFY(c.warn());
        QCOMPARE(c.problems,
                 QStringList({QStringLiteral("schema id 2: the copied records will point at it, which on the target "
                                             "registry (http://dst) is absent"),
                              QStringLiteral("schema id 6: the copied records will point at it, which on the target "
                                             "registry (http://dst) is orders-value version 1 (a different AVRO "
                                             "schema)")}));
        QVERIFY(c.notes.isEmpty());
        // All the same: no warning.
        t.insert(2, {schema(2, {}, 0, kOrderV2), {}, {}});
        t.insert(6, {schema(6, {}, 0, kOther), {}, {}});
        QVERIFY(!judgeCopySchemaIds({1, 2, 5, 6}, s, t, QStringLiteral("http://dst")).warn());
        // No registry on the other side: every id the source knows is a problem.
        const CopySchemaCheck none = judgeCopySchemaIds({1, 5}, s, {}, {});
        QCOMPARE(none.problems.size(), 1);
        QVERIFY(none.problems.first().startsWith(QStringLiteral("schema id 1 (AVRO): the other cluster's connection "
                                                                "has no schema registry")));
    }
};

QTEST_GUILESS_MAIN(TestRegistryCompare)
#include "tst_registrycompare.moc"
