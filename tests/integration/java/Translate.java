// An independent reader of MM2-format checkpoints for tst_mm2checkpoints: MM2's
// own client library (connect-mirror-client) translates a consumer group's
// offsets from the checkpoints on a cluster, as applications that fail over
// with MirrorMaker 2 do. Run in source-file mode (Java 11+, no javac):
//   java -cp 'KAFKA_LIBS/*' Translate.java BOOTSTRAP ALIAS GROUP [SEPARATOR]
// Prints the checkpoints topic's shape, then one line per translated partition:
//   topic NAME partitions N cleanup.policy POLICY
//   offset TOPIC PARTITION OFFSET
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.RemoteClusterUtils;

public class Translate {
    public static void main(String[] args) throws Exception {
        String bootstrap = args[0], alias = args[1], group = args[2];
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        if (args.length > 3)
            props.put("replication.policy.separator", args[3]);

        DefaultReplicationPolicy policy = new DefaultReplicationPolicy();
        policy.configure(props);
        String topic = policy.checkpointsTopic(alias);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config c = admin.describeConfigs(List.of(r)).all().get().get(r);
            System.out.println("topic " + topic + " partitions " + d.partitions().size() + " cleanup.policy "
                               + c.get("cleanup.policy").value());
        }

        Map<TopicPartition, OffsetAndMetadata> offsets =
            RemoteClusterUtils.translateOffsets(props, alias, group, Duration.ofSeconds(30));
        Map<String, Long> sorted = new TreeMap<>();
        for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet())
            sorted.put(e.getKey().topic() + " " + e.getKey().partition(), e.getValue().offset());
        for (Map.Entry<String, Long> e : sorted.entrySet())
            System.out.println("offset " + e.getKey() + " " + e.getValue());
    }
}
