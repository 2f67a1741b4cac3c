#include "engine/query/JsonPath.h"

#include <QTest>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace md;
// Plain string literals only: moc (6.4) loses track of some raw strings
// holding quotes and backslashes and then finds no class here.
using Outcome = JsonPredicate::Outcome;

Q_DECLARE_METATYPE(JsonPredicate::Outcome)

namespace {

const char kOrder[] = "{\"id\":\"o-1\",\"customer\":{\"id\":42,\"name\":\"Ann\",\"tier\":\"gold\"},"
                      "\"items\":[{\"sku\":\"A1\",\"qty\":2,\"price\":9.5},{\"sku\":\"B7\",\"qty\":1,\"price\":20}],"
                      "\"total\":39.0,\"paid\":true,\"note\":null,\"tags\":[\"x\",\"y\",\"z\"]}";

Outcome eval(const QString &expr, const std::string &json)
{
    QString error;
    const auto p = JsonPredicate::parse(expr, &error);
    if (!p)
        qFatal("parse failed: %s: %s", qPrintable(expr), qPrintable(error));
    return p->evaluate(json);
}

} // namespace

class TstJsonPath final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void evaluate_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<Outcome>("expected");
        const QByteArray order(kOrder);
        const auto row = [](const char *name, const char *expr, const QByteArray &json, Outcome o) {
            QTest::newRow(name) << QString::fromUtf8(expr) << json << o;
        };
        const Outcome M = Outcome::Match, N = Outcome::NoMatch, X = Outcome::NotJson;
        // every operator on numbers
        row("int ==", "$.customer.id == 42", order, M);
        row("int == other", "$.customer.id == 43", order, N);
        row("int !=", "$.customer.id != 43", order, M);
        row("int != same", "$.customer.id != 42", order, N);
        row("int <", "$.customer.id < 43", order, M);
        row("int < equal", "$.customer.id < 42", order, N);
        row("int <=", "$.customer.id <= 42", order, M);
        row("int <= less", "$.customer.id <= 41", order, N);
        row("int >", "$.customer.id > 41", order, M);
        row("int > equal", "$.customer.id > 42", order, N);
        row("int >=", "$.customer.id >= 42", order, M);
        row("int >= more", "$.customer.id >= 43", order, N);
        row("double vs int", "$.total == 39", order, M);
        row("double <", "$.total < 39.5", order, M);
        row("int vs double literal", "$.customer.id == 42.0", order, M);
        row("int vs fraction", "$.customer.id < 42.5", order, M);
        row("negative", "$.v < -1", "{\"v\":-2.5}", M);
        row("exponent", "$.v == 1500", "{\"v\":1.5e3}", M);
        row("huge exponent", "$.v > 1e300", "{\"v\":1e400}", M);
        row("tiny exponent", "$.v == 0", "{\"v\":1e-400}", M);
        // int64 exactness beyond 2^53
        row("int64 exact", "$.id == 9007199254740993", "{\"id\":9007199254740993}", M);
        row("int64 not rounded", "$.id == 9007199254740992", "{\"id\":9007199254740993}", N);
        row("int64 ordered", "$.id > 9007199254740992", "{\"id\":9007199254740993}", M);
        row("int64 vs double", "$.id == 9007199254740992.0", "{\"id\":9007199254740993}", N);
        row("int64 max", "$.id == 9223372036854775807", "{\"id\":9223372036854775807}", M);
        row("beyond int64", "$.id > 9223372036854775807", "{\"id\":9223372036854775808}", M);
        // strings
        row("string ==", "$.customer.name == \"Ann\"", order, M);
        row("string single quotes", "$.customer.name == 'Ann'", order, M);
        row("string != ", "$.customer.name != \"Bob\"", order, M);
        row("string <", "$.customer.name < \"Bob\"", order, M);
        row("string prefix <", "$.customer.name < \"Anna\"", order, M);
        row("string >=", "$.customer.name >= \"Ann\"", order, M);
        row("string > no", "$.customer.name > \"Ann\"", order, N);
        row("utf8 byte order", "$.s > \"z\"", "{\"s\":\"é\"}", M);
        row("regex", "$.customer.tier =~ \"^go\"", order, M);
        row("regex unanchored", "$.customer.tier =~ \"ol\"", order, M);
        row("regex no", "$.customer.tier =~ \"^old\"", order, N);
        row("regex on number", "$.customer.id =~ \"4\"", order, N);
        row("regex escaped doc", "$.s =~ \"^a\\\"b$\"", "{\"s\":\"a\\\"b\"}", M);
        row("regex unicode", "$.s =~ \"^é+$\"", "{\"s\":\"\\u00e9\\u00E9\"}", M);
        // escapes and unicode
        row("doc escape", "$.s == \"a\\\"b\\\\c/d\"", "{\"s\":\"a\\\"b\\\\c\\/d\"}", M);
        row("doc escape no", "$.s == \"a\\\"b\\\\c/e\"", "{\"s\":\"a\\\"b\\\\c\\/d\"}", N);
        row("doc escaped longer", "$.s == \"ab\"", "{\"s\":\"ab\\n\"}", N);
        row("doc escaped shorter", "$.s == \"a\\n\\n\"", "{\"s\":\"a\\n\"}", N);
        row("doc escaped order", "$.s < \"a\\u000b\"", "{\"s\":\"a\\n\"}", M);
        row("control escapes", "$.s == \"\\b\\f\\n\\r\\t\"", "{\"s\":\"\\b\\f\\n\\r\\t\"}", M);
        row("unicode escape", "$.s == \"é€\"", "{\"s\":\"\\u00e9\\u20AC\"}", M);
        row("surrogate pair", "$.s == \"\\ud83d\\ude00\"", "{\"s\":\"\xF0\x9F\x98\x80\"}", M);
        row("surrogate pair in doc", "$.s == '\xF0\x9F\x98\x80'", "{\"s\":\"\\ud83d\\ude00\"}", M);
        row("lone surrogate", "$.s == '\xEF\xBF\xBD'", "{\"s\":\"\\ud83d\"}", M);
        row("literal \\'", "$.s == 'it\\'s'", "{\"s\":\"it's\"}", M);
        row("escaped key", "$.ab == 1", "{\"a\\u0062\":1}", M);
        row("escaped key differs", "$.ab == 1", "{\"a\\u0063\":1}", N);
        // other types
        row("true", "$.paid == true", order, M);
        row("true != false", "$.paid != false", order, M);
        row("false", "$.paid == false", order, N);
        row("null", "$.note == null", order, M);
        row("null !=", "$.note != null", order, N);
        row("bool ordering", "$.paid > false", order, N);
        row("null ordering", "$.note <= null", order, N);
        // type mismatch
        row("string vs number ==", "$.s == 1", "{\"s\":\"1\"}", N);
        row("string vs number !=", "$.s != 1", "{\"s\":\"1\"}", M);
        row("string vs number <", "$.s < 2", "{\"s\":\"1\"}", N);
        row("number vs string", "$.n == \"1\"", "{\"n\":1}", N);
        row("null vs false", "$.note == false", order, N);
        row("object vs literal ==", "$.customer == 1", order, N);
        row("object vs literal !=", "$.customer != 1", order, M);
        row("array ordering", "$.items > 1", order, N);
        // wildcards, indexes, quoted keys
        row("wildcard any", "$.items[*].sku == \"B7\"", order, M);
        row("wildcard first", "$.items[*].sku == \"A1\"", order, M);
        row("wildcard != any", "$.tags[*] != 'x'", order, M);
        row("missing path !=", "$.x != 1", order, N);
        row("not of missing", "!($.x == 1)", order, M);
        row("wildcard none", "$.items[*].sku == \"C3\"", order, N);
        row("wildcard numbers", "$.items[*].qty > 1", order, M);
        row("dot wildcard object", "$.customer.* == \"Ann\"", order, M);
        row("dot wildcard array", "$.tags.* == \"z\"", order, M);
        row("bracket wildcard object", "$.customer[*] == 42", order, M);
        row("index 0", "$.items[0].sku == \"A1\"", order, M);
        row("index 1", "$.items[1].sku == \"A1\"", order, N);
        row("index past end", "$.items[2]", order, N);
        row("negative index", "$.tags[-1] == \"z\"", order, M);
        row("negative index 2", "$.tags[-3] == \"x\"", order, M);
        row("negative index past start", "$.tags[-4]", order, N);
        row("index on object", "$.customer[0]", order, N);
        row("key on array", "$.tags.x", order, N);
        row("path through scalar", "$.customer.id.x", order, N);
        row("quoted key", "$[\"weird key\"] == 1", "{\"weird key\":1}", M);
        row("quoted key single", "$['a.b'][0] == 2", "{\"a\":{\"b\":[1]},\"a.b\":[2]}", M);
        row("quoted key escapes", "$['q\\\"'] == 3", "{\"q\\\"\":3}", M);
        row("spaces", " $ . items [ * ] . sku   ==   \"A1\" ", order, M);
        row("root", "$ == 5", " 5 ", M);
        row("root string", "$ == 'x'", "\"x\"", M);
        // duplicates
        row("duplicate first", "$.a == 1", "{\"a\":1,\"a\":2}", M);
        row("duplicate second", "$.a == 2", "{\"a\":1,\"a\":2}", M);
        row("duplicate nested", "$.a.b == 2", "{\"a\":{\"b\":1},\"a\":{\"b\":2}}", M);
        // && || ! ()
        row("and", "$.customer.id == 42 && $.paid == true", order, M);
        row("and false", "$.customer.id == 42 && $.paid == false", order, N);
        row("or", "$.customer.id == 1 || $.paid == true", order, M);
        row("or false", "$.customer.id == 1 || $.paid == false", order, N);
        row("not", "!$.paid", order, N);
        row("not not", "!!$.paid", order, M);
        row("not comparison", "!($.customer.id == 1)", order, M);
        row("precedence", "$.x || $.paid && $.note", order, M);
        row("precedence 2", "$.paid || $.x && $.y", order, M);
        row("precedence 3", "($.paid || $.x) && $.y", order, N);
        row("long chain", "$.a == 1 && $.b == 2 && $.c == 3 && !$.d", "{\"a\":1,\"b\":2,\"c\":3}", M);
        // exists
        row("exists", "$.customer.name", order, M);
        row("exists null", "$.note", order, M);
        row("exists not", "$.customer.email", order, N);
        row("exists root", "$", "[]", M);
        row("exists empty object member", "$.a", "{}", N);
        // skipping nested values and tricky strings
        row("skip brackets in strings", "$.b == 1",
            "{\"a\":{\"x\":\"}]\\\"{[\",\"y\":[1,{\"z\":\"\\\\\"}],\"w\":\"\\\\\\\"\"},\"b\":1}", M);
        row("skip nested arrays", "$.b == 1", "{\"a\":[[[],[{}]],[[[1,2]]]],\"b\":1}", M);
        row("skip key not matched as value", "$.b == \"a\"", "{\"a\":\"b\",\"c\":{\"b\":\"x\"},\"b\":\"a\"}", M);
        row("nested key not at top", "$.b", "{\"a\":{\"b\":1}}", N);
        row("whitespace everywhere", "$.b[1] == 2", " \n{ \"a\" : [ 1 , { } ] ,\r\n\t\"b\" : [ 1 , 2 ] } \n", M);
        // not JSON where read
        row("empty", "$", "", X);
        row("only space", "$.a", "  \n", X);
        row("garbage", "$.a", "hello", X);
        row("truncated", "$.b", "{\"a\":1,", X);
        row("unterminated string", "$.b", "{\"a\":\"xyz", X);
        row("bad escape", "$.b", "{\"a\":\"\\q\",\"b\":1}", X);
        row("bad unicode escape", "$.b", "{\"a\":\"\\u12G4\",\"b\":1}", X);
        row("raw control char", "$.b", "{\"a\":\"x\ny\",\"b\":1}", X);
        row("missing colon", "$.b", "{\"a\" 1}", X);
        row("trailing comma", "$.b", "{\"a\":1,}", X);
        row("bad number", "$.a == 1", "{\"a\":01}", X);
        row("bad number 2", "$.b", "{\"a\":1.,\"b\":1}", X);
        row("bad literal", "$.b", "{\"a\":nul,\"b\":1}", X);
        row("mismatched close", "$.b", "{\"a\":[1},\"b\":1}", X);
        row("trailing garbage", "$.a == 2", "{\"a\":1} x", X);
        row("two documents", "$.a == 2", "{\"a\":1}{\"a\":2}", X);
        row("unquoted key", "$.a", "{a:1}", X);
        row("not of an early match", "!$.a", "{\"a\":1, oops", N);
        row("not reads the tail", "!$.b", "{\"a\":1, oops", X);
        row("match stops early", "$.a == 1", "{\"a\":1, oops", M);
        row("or keeps NotJson", "$.x || $.a == 1", "{\"a\":1, oops", X);
        row("and reads on", "$.a == 2 && $.b", "{\"a\":2} x", X);
    }
    void evaluate()
    {
        QFETCH(QString, expr);
        QFETCH(QByteArray, json);
        QFETCH(Outcome, expected);
        QCOMPARE(eval(expr, json.toStdString()), expected);
    }

    void deepNesting()
    {
        const auto nested = [](int levels) {
            return std::string(size_t(levels), '[') + "1" + std::string(size_t(levels), ']');
        };
        const int max = JsonPredicate::kMaxDepth;
        QCOMPARE(eval(QStringLiteral("$"), nested(max)), Outcome::Match);
        QCOMPARE(eval(QStringLiteral("$"), nested(max + 1)), Outcome::NotJson);
        QCOMPARE(eval(QStringLiteral("$.a"), nested(max + 1)), Outcome::NotJson);
        QCOMPARE(eval(QStringLiteral("$[0][0][0] == 1"), nested(3)), Outcome::Match);
        QCOMPARE(eval(QStringLiteral("$[*][*][*][*] == 1"), nested(3)), Outcome::NoMatch);
        // A path that follows the nesting all the way down.
        QString down = QStringLiteral("$");
        for (int i = 0; i < max + 1; ++i)
            down += QStringLiteral("[0]");
        QCOMPARE(eval(down + QStringLiteral(" == 1"), nested(max)), Outcome::NoMatch);
        QCOMPARE(eval(down.left(down.size() - 3) + QStringLiteral(" == 1"), nested(max)), Outcome::Match);
        QCOMPARE(eval(down, nested(max + 1)), Outcome::NotJson);
        // Hostile input: never a stack overflow.
        const std::string open(10000, '[');
        QCOMPARE(eval(QStringLiteral("$"), open), Outcome::NotJson);
        QCOMPARE(eval(QStringLiteral("$[*]"), open), Outcome::NotJson);
        QCOMPARE(eval(QStringLiteral("$.a"), std::string(10000, '{')), Outcome::NotJson);
        std::string objects;
        for (int i = 0; i < 10000; ++i)
            objects += "{\"a\":";
        QCOMPARE(eval(QStringLiteral("$.b"), objects), Outcome::NotJson);
        QCOMPARE(eval(QStringLiteral("$.*.*.*.*"), objects), Outcome::NotJson);
    }

    void parseErrors_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QString>("error");
        const auto row = [](const char *name, const char *expr, const char *error) {
            QTest::newRow(name) << QString::fromUtf8(expr) << QString::fromUtf8(error);
        };
        row("missing ]", "$.items[0 == 1", "expected ']' at column 11");
        row("missing ] wildcard", "$.items[*.sku", "expected ']' at column 10");
        row("bad bracket", "$.items[x]", "expected an index, '*' or a quoted key after '[' at column 9");
        row("bad name", "$.1a == 1", "expected a name or '*' after '.' at column 3");
        row("recursive descent", "$..a", "expected a name or '*' after '.' at column 3");
        row("no $", "customer.id == 42", "expected a path starting with '$' at column 1");
        row("no $ after &&", "$.a && b", "expected a path starting with '$' at column 8");
        row("empty", "", "expected a path starting with '$', found the end at column 1");
        row("unknown operator =", "$.a = 1", "unknown operator '=' at column 5");
        row("unknown operator ===", "$.a === 1", "unknown operator '===' at column 5");
        row("unknown operator =>", "$.a => 1", "unknown operator '=>' at column 5");
        row("unknown operator &", "$.a & $.b", "unknown operator '&' at column 5");
        row("unknown operator |", "$.a | $.b", "unknown operator '|' at column 5");
        row("missing literal", "$.a ==", "expected a literal after '==', found the end at column 7");
        row("missing literal before &&", "$.a >= && $.b", "expected a literal after '>=' at column 8");
        row("bad word literal", "$.a == yes", "expected a literal after '==', found 'yes' at column 8");
        row("unterminated string", "$.a == \"abc", "unterminated string starting at column 8");
        row("unterminated single", "$.a == 'abc\\'", "unterminated string starting at column 8");
        row("unterminated key", "$['abc", "unterminated string starting at column 3");
        row("bad escape", "$.a == \"x\\qy\"", "bad escape '\\q' at column 10");
        row("bad unicode escape", "$.a == \"\\u12x4\"", "bad escape: '\\u' needs four hex digits at column 9");
        row("lone surrogate", "$.a == \"\\ud800\"", "bad escape: unpaired surrogate at column 9");
        row("trailing input", "$.a == 1 2", "unexpected '2': trailing input at column 10");
        row("trailing )", "$.a)", "unexpected ')': trailing input at column 4");
        row("bare literal after path", "$.a 42", "unexpected '42': trailing input at column 5");
        row("missing )", "($.a == 1", "expected ')' at column 10");
        row("missing ) inner", "(($.a) || $.b", "expected ')' at column 14");
        row("bad number", "$.a == 1.", "invalid number at column 8");
        row("bad number 2", "$.a == 12abc", "invalid number at column 8");
        row("bad number 3", "$.a == -x", "invalid number at column 8");
        row("regex needs string", "$.a =~ 1", "'=~' needs a string literal (a regular expression) at column 8");
        row("index range", "$[99999999999999999999]", "index out of range at column 3");
    }
    void parseErrors()
    {
        QFETCH(QString, expr);
        QFETCH(QString, error);
        QString actual;
        QVERIFY(!JsonPredicate::parse(expr, &actual));
        QCOMPARE(actual, error);
    }

    void regexError()
    {
        QString error;
        QVERIFY(!JsonPredicate::parse(u"$.a == 1 && $.b =~ \"(ab\"", &error));
        // QRegularExpression's own message, then where.
        QVERIFY2(error.startsWith(QStringLiteral("invalid regular expression (missing closing parenthesis")),
                 qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral(" at column 20")), qPrintable(error));
        QVERIFY(!JsonPredicate::parse(u"$.a =~ '['", nullptr)); // no error wanted: fine
    }

    void nestingInExpression()
    {
        QString error;
        const QString deep = QString(300, u'(') + QStringLiteral("$") + QString(300, u')');
        QVERIFY(!JsonPredicate::parse(deep, &error));
        QVERIFY2(error.startsWith(QStringLiteral("expression nested too deeply at column")), qPrintable(error));
        QVERIFY(!JsonPredicate::parse(QString(QString(100000, u'!') + QStringLiteral("$")), &error));
        QVERIFY(JsonPredicate::parse(QString(QString(100, u'(') + QStringLiteral("$") + QString(100, u')')), &error));
        // A long flat chain is no nesting.
        QString chain = QStringLiteral("$.a");
        for (int i = 0; i < 5000; ++i)
            chain += QStringLiteral(" || $.a");
        const auto p = JsonPredicate::parse(chain, &error);
        QVERIFY2(p, qPrintable(error));
        QCOMPARE(p->evaluate("{\"b\":1}"), Outcome::NoMatch);
    }

    void concurrentEvaluate()
    {
        // One predicate, many scanner threads (meaningful under the tsan preset).
        const auto p = JsonPredicate::parse(u"$.items[*].sku =~ '^A' && $.customer.id == 42", nullptr);
        QVERIFY(p);
        const std::string order(kOrder);
        std::atomic<int> matches = 0;
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&] {
                for (int i = 0; i < 2000; ++i)
                    matches += p->evaluate(order) == Outcome::Match;
            });
        }
        for (std::thread &t : threads)
            t.join();
        QCOMPARE(matches.load(), 8000);
    }

    void copiesShareTheProgram()
    {
        const auto p = JsonPredicate::parse(u"$.a =~ '^x'", nullptr);
        QVERIFY(p);
        const JsonPredicate copy = *p;
        QCOMPARE(copy.evaluate("{\"a\":\"xy\"}"), Outcome::Match);
        QCOMPARE(p->evaluate("{\"a\":\"yx\"}"), Outcome::NoMatch);
    }
};

QTEST_GUILESS_MAIN(TstJsonPath)
#include "tst_jsonpath.moc"
