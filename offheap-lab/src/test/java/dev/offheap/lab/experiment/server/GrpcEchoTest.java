/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.offheap.lab.experiment.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The gRPC workload's method: raw bytes, written and read the way protobuf's marshallers let gRPC do it. */
class GrpcEchoTest {
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = GrpcEcho.METHOD.getRequestMarshaller();

    private static byte[] message() {
        byte[] message = new byte[4096];
        new SplittableRandom(7).nextBytes(message);
        return message;
    }

    /** A stream of known length that is not an array's, as the ones gRPC hands a marshaller to parse. */
    private static class Received extends ByteArrayInputStream implements KnownLength {
        Received(byte[] bytes, int length) {
            super(bytes, 0, length);
        }
    }

    @Test
    void aMessageDrainsIntoGrpcsOutputWholeAndSaysItsLength() throws Exception {
        InputStream stream = BYTES.stream(message());
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThat(stream).isInstanceOf(KnownLength.class).isInstanceOf(Drainable.class);
        assertThat(stream.available()).isEqualTo(4096);
        assertThat(((Drainable) stream).drainTo(out)).isEqualTo(4096);
        assertThat(out.toByteArray()).isEqualTo(message());
        assertThat(stream.available()).isZero();
    }

    @Test
    void aMessageIsParsedFromAStreamOfKnownLengthOrAnyOther() {
        assertThat(BYTES.parse(new Received(message(), 4096))).isEqualTo(message());
        assertThat(BYTES.parse(new java.io.BufferedInputStream(new ByteArrayInputStream(message()))))
                .isEqualTo(message());
        assertThat(BYTES.parse(BYTES.stream(new byte[0]))).isEmpty();
    }

    @Test
    void aStreamShorterThanItsLengthIsAnInternalError() {
        InputStream lying = new Received(new byte[10], 10) {
            @Override
            public synchronized int available() {
                return 20;
            }
        };

        assertThatThrownBy(() -> BYTES.parse(lying)).isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("INTERNAL");
    }

    @Test
    void theMethodIsTheServicesOneUnaryMethod() {
        assertThat(GrpcEcho.METHOD.getFullMethodName()).isEqualTo("offheap.lab.Echo/Echo");
        assertThat(GrpcEcho.METHOD.getType()).isEqualTo(MethodDescriptor.MethodType.UNARY);
        assertThat(GrpcEcho.service().getServiceDescriptor().getName()).isEqualTo(GrpcEcho.SERVICE);
        assertThat(GrpcEcho.service().getMethods()).hasSize(1);
    }
}
